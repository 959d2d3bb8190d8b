import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { tempStore, type TempStore } from '../../testing/store.js';
import { createOrchestratorService } from './service.js';

let temp: TempStore | undefined;
afterEach(async () => {
  await temp?.dispose();
});

describe('outbox retention', () => {
  it('applies the retention setting through the service', async () => {
    temp = await tempStore('idv-outbox-retention-');
    for (let i = 0; i < 2; i++) {
      const id = randomUUID();
      await temp.store.outbox.add({ id, subject: 'idv.events.test.store', payload: { id, i } });
    }
    const service = createOrchestratorService({
      outbox: temp.store.outbox,
      settings: temp.settings,
      face: undefined,
      liveness: undefined,
    });
    const day = 24 * 60 * 60 * 1000;
    expect(await service.prune(Date.now() + 89 * day)).toBe(0);
    await service.setConfig({ outbox_retention_days: 0 });
    expect(await service.prune(Date.now() + 365 * day)).toBe(0);
    await service.setConfig({ outbox_retention_days: 90 });
    // No broker configured: events older than the retention go even though nothing published them.
    expect(await service.prune(Date.now() + 91 * day)).toBe(2);
  });
});
