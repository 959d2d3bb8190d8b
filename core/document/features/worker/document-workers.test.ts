import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCoreError } from '../../../errors.js';
import type { DecodedImage } from '../../../imaging/decode.js';
import type { WorkerLane } from '../../../workers/index.js';
import type { faultHandlers } from '../../../workers/testing/fault-handlers.js';
import { disposeMrzReader, readMrz } from '../../mrz/index.js';
import { renderMrzCard, TD3_SPECIMEN, toDecoded } from '../../mrz/test-fixtures.js';
import { DocumentWorkers } from './document-workers.js';

describe('DocumentWorkers (real workers, real MRZ model)', () => {
  const workers = new DocumentWorkers({ size: 1, preloadMrz: true, extraGroups: ['test-faults'] });
  const faults = workers.lane as unknown as WorkerLane<typeof faultHandlers>;
  let card: DecodedImage;
  beforeAll(async () => {
    card = await toDecoded(await renderMrzCard(TD3_SPECIMEN));
  });
  afterAll(async () => {
    await workers.close();
    await disposeMrzReader();
  });

  it('reads the MRZ on a worker exactly as on the main thread, leaving the caller’s pixels intact', async () => {
    const before = Buffer.from(card.rgb);
    const off = await workers.readMrz(card);
    const main = await readMrz(card);
    expect(off).toMatchObject({ format: 'TD3', valid: true, lines: TD3_SPECIMEN });
    expect({ ...off, ms: 0 }).toEqual({ ...main, ms: 0 });
    expect(card.rgb.equals(before)).toBe(true);
  });

  it('answers a read whose worker dies with ENGINE_UNAVAILABLE, and reads again on the replacement', async () => {
    await faults.run('fault.arm', { fault: 'exit' });
    const lost = await workers.readMrz(card).catch((e: unknown) => e);
    expect(isCoreError(lost) && lost.code).toBe('ENGINE_UNAVAILABLE');
    expect(await workers.readMrz(card)).toMatchObject({ valid: true });
    expect(workers.stats()).toMatchObject({ state: 'ready', replaced: 1 });
  });

  it('runs feature tasks with the worker’s own time', async () => {
    const blank = { rgb: new Uint8Array(64 * 64 * 3).fill(255), width: 64, height: 64 };
    const { result, ms } = await workers.run({ kind: 'pdf417', image: blank });
    expect(result).toBeNull();
    expect(ms).toBeGreaterThanOrEqual(0);
  });
});
