import { afterAll, describe, expect, it } from 'vitest';
import { CoreError } from '../../errors.js';
import { extractFeatures } from '../extract/index.js';
import { syntheticFingerprint, syntheticUpload } from '../synthetic/index.js';
import { ExtractionPool } from './pool.js';

describe('ExtractionPool', () => {
  const pool = new ExtractionPool({ size: 1, maxQueue: 1 });
  afterAll(async () => pool.close());

  it('extracts on a worker thread exactly what the extractor gives in-thread', async () => {
    const upload = syntheticUpload(61, 0);
    const before = Buffer.from(upload.rgb);
    const features = await pool.extract(upload);
    expect(features).toEqual(extractFeatures(syntheticFingerprint(61, 0), { dpi: 500 }));
    // The caller's pixels are copied, never detached by the transfer.
    expect(upload.rgb.equals(before)).toBe(true);
  });

  it('sheds load beyond the queue with OVERLOADED and a Retry-After', async () => {
    const upload = syntheticUpload(61, 1);
    // The worker is up (first test): one job runs, one waits, the next is refused.
    const jobs = [pool.extract(upload), pool.extract(upload)];
    const refused = await pool.extract(upload).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CoreError);
    expect((refused as CoreError).code).toBe('OVERLOADED');
    expect((refused as CoreError).status).toBe(503);
    expect((refused as CoreError).details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    const done = await Promise.all(jobs);
    expect(done[0]!.minutiae.length).toBeGreaterThan(0);
    expect(pool.stats()).toMatchObject({ busy: 0, queued: 0, replaced: 0 });
  });

  it('keeps the event loop free while a worker extracts', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await pool.extract(syntheticUpload(62, 0));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(2);
  });

  it('runs in-thread with size 0 and refuses work after close', async () => {
    const inline = new ExtractionPool({ size: 0 });
    expect((await inline.extract(syntheticUpload(61, 0))).minutiae.length).toBeGreaterThan(0);
    await inline.close();
    await expect(inline.extract(syntheticUpload(61, 0))).rejects.toThrow(CoreError);
  });
});
