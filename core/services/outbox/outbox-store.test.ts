import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../storage/db.js';
import { SettingsStore } from '../../storage/settings.js';
import { createOrchestratorService } from '../orchestrator/service.js';
import { OutboxStore } from './outbox-store.js';

let store: Store;
let outbox: OutboxStore;
beforeEach(() => {
  store = openStore(fs.mkdtempSync(path.join(os.tmpdir(), 'idv-outbox-store-')));
  outbox = new OutboxStore(store.db);
});
afterEach(() => {
  store.close();
  fs.rmSync(store.dataDir, { recursive: true, force: true });
});

function add(n: number): number[] {
  return Array.from({ length: n }, (_, i) => {
    const id = randomUUID();
    return outbox.insert({ id, subject: 'idv.events.test.store', payload: { id, i } });
  });
}

describe('outbox store', () => {
  it('reads by cursor, tracks the backlog and marks publication', () => {
    const seqs = add(3);
    expect(outbox.after(0, 10).map((row) => row.seq)).toEqual(seqs);
    expect(outbox.after(seqs[0]!, 1).map((row) => row.seq)).toEqual([seqs[1]]);
    outbox.markPublished([seqs[0]!]);
    expect(outbox.unpublished(10).map((row) => row.seq)).toEqual(seqs.slice(1));
    expect(outbox.backlog().count).toBe(2);
    expect(outbox.lastSeq()).toBe(seqs[2]);
  });

  it('prunes published rows only, unless told the unpublished ones are owed to nobody', () => {
    const [published] = add(2);
    outbox.markPublished([published!]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(outbox.prune(future, false)).toBe(1);
    expect(outbox.after(0, 10)).toHaveLength(1);
    expect(outbox.prune(future, true)).toBe(1);
    expect(outbox.after(0, 10)).toHaveLength(0);
  });

  it('applies the retention setting through the service', () => {
    add(2);
    const service = createOrchestratorService({
      db: store.db,
      settings: new SettingsStore(store.db),
      face: undefined,
      liveness: undefined,
    });
    const day = 24 * 60 * 60 * 1000;
    expect(service.prune(Date.now() + 89 * day)).toBe(0);
    service.setConfig({ outbox_retention_days: 0 });
    expect(service.prune(Date.now() + 365 * day)).toBe(0);
    service.setConfig({ outbox_retention_days: 90 });
    // No broker configured: events older than the retention go even though nothing published them.
    expect(service.prune(Date.now() + 91 * day)).toBe(2);
  });
});
