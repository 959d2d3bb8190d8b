import { afterEach, describe, expect, it } from 'vitest';
import { CoreError, isCoreError } from '../errors.js';
import { WorkerLane, type LaneOptions } from './lane.js';
import type { faultHandlers } from './testing/fault-handlers.js';

type FaultLane = WorkerLane<typeof faultHandlers>;

const lanes: FaultLane[] = [];
afterEach(async () => {
  await Promise.all(lanes.splice(0).map((lane) => lane.close()));
});

function faultLane(options: Partial<LaneOptions> = {}): FaultLane {
  const lane = new WorkerLane<typeof faultHandlers>({
    name: 'faults',
    label: 'fault lane',
    groups: ['test-faults'],
    size: 1,
    maxQueue: 8,
    maxWaitMs: Number.POSITIVE_INFINITY,
    timeoutMs: 30_000,
    ...options,
  });
  lanes.push(lane);
  return lane;
}

function codeOf(error: unknown): string | undefined {
  return isCoreError(error) ? error.code : undefined;
}

describe('WorkerLane: faults', () => {
  it('replaces a worker that exits mid-job: that job fails with ENGINE_UNAVAILABLE, the next ones are served', async () => {
    const lane = faultLane();
    expect(await lane.run('fault.echo', 1)).toBe(1);
    const lost = await lane.run('fault.exit', undefined).catch((e: unknown) => e);
    expect(codeOf(lost)).toBe('ENGINE_UNAVAILABLE');
    expect((lost as CoreError).status).toBe(503);
    expect((lost as CoreError).details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(await lane.run('fault.echo', 2)).toBe(2);
    expect(await lane.run('fault.echo', 3)).toBe(3);
    expect(lane.stats()).toMatchObject({ state: 'ready', replaced: 1, busy: 0, queued: 0 });
    expect(lane.stats().lastFailure?.reason).toMatch(/exited/);
  });

  it('replaces a worker that throws at top level and serves the jobs queued behind it', async () => {
    const lane = faultLane();
    const lost = lane.run('fault.throw', undefined).catch((e: unknown) => e);
    const queued = [lane.run('fault.echo', 'a'), lane.run('fault.echo', 'b')];
    expect(codeOf(await lost)).toBe('ENGINE_UNAVAILABLE');
    expect(await Promise.all(queued)).toEqual(['a', 'b']);
    expect(lane.stats().replaced).toBe(1);
    expect(lane.stats().lastFailure?.reason).toMatch(/uncaught error/);
  });

  it('times out a stuck job, replaces its worker and serves the next job', async () => {
    const lane = faultLane({ kinds: { 'fault.hang': { timeoutMs: 300 } } });
    const stuck = await lane.run('fault.hang', undefined).catch((e: unknown) => e);
    expect(codeOf(stuck)).toBe('ENGINE_UNAVAILABLE');
    expect((stuck as Error).message).toMatch(/did not finish within/);
    expect(await lane.run('fault.echo', 'next')).toBe('next');
    expect(lane.stats().replaced).toBe(1);
  });

  it('stops a worker that overruns inside onnxruntime between two runs, without aborting the process', async () => {
    const lane = faultLane({ kinds: { 'fault.onnx-loop': { timeoutMs: 1500 } } });
    await lane.start();
    const stuck = await lane.run('fault.onnx-loop', { ms: 60_000 }).catch((e: unknown) => e);
    expect(codeOf(stuck)).toBe('ENGINE_UNAVAILABLE');
    expect(await lane.run('fault.echo', 'still here')).toBe('still here');
    // The lane stays well and keeps one worker.
    expect(lane.stats()).toMatchObject({ state: 'ready', replaced: 1, workers: 1 });
  });

  it('keeps error codes, fields and extras thrown in a handler, and plain errors as plain errors', async () => {
    const lane = faultLane();
    const coded = await lane
      .run('fault.coded', { field: 'file', extra: { quality: 0.12 } })
      .catch((e: unknown) => e);
    expect(coded).toBeInstanceOf(CoreError);
    expect(coded).toMatchObject({
      code: 'QUALITY_TOO_LOW',
      details: { field: 'file', extra: { quality: 0.12 } },
    });
    const plain = await lane.run('fault.plain', undefined).catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(Error);
    expect(isCoreError(plain)).toBe(false);
    expect((plain as Error).message).toBe('injected plain failure');
    // A handler error is not a worker fault: nothing was replaced.
    expect(lane.stats().replaced).toBe(0);
  });

  it('tells a job whether it is the only pool job in the process, across lanes and until jobs settle', async () => {
    const lane = faultLane();
    const other = faultLane({ name: 'others' });
    expect(await lane.run('fault.alone', undefined)).toBe(true);
    const busy = other.run('fault.sleep', { ms: 400 });
    expect(await lane.run('fault.alone', undefined)).toBe(false);
    await busy;
    expect(await lane.run('fault.alone', undefined)).toBe(true);
    // A queued job counts too: this one waits for its lane's first worker to start.
    const cold = faultLane({ name: 'cold' });
    const queued = cold.run('fault.echo', 1);
    expect(await lane.run('fault.alone', undefined)).toBe(false);
    expect(await queued).toBe(1);
    const cancelled = new AbortController();
    const dropped = other
      .run('fault.sleep', { ms: 5_000 }, { signal: cancelled.signal })
      .catch(() => 'dropped');
    cancelled.abort();
    expect(await dropped).toBe('dropped');
    expect(await lane.run('fault.alone', undefined)).toBe(true);
  });

  it('moves transferred result buffers back', async () => {
    const lane = faultLane();
    const bytes = await lane.run('fault.bytes', { length: 1000 });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.length).toBe(1000);
    expect(bytes[999]).toBe(7);
  });
});

describe('WorkerLane: admission', () => {
  it('refuses a job beyond a full queue with OVERLOADED and a Retry-After', async () => {
    const lane = faultLane({ maxQueue: 1 });
    await lane.start();
    const running = lane.run('fault.sleep', { ms: 300 });
    const queued = lane.run('fault.sleep', { ms: 10 });
    const refused = await lane.run('fault.echo', 1).catch((e: unknown) => e);
    expect(codeOf(refused)).toBe('OVERLOADED');
    expect((refused as CoreError).details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    await Promise.all([running, queued]);
    expect(await lane.run('fault.echo', 2)).toBe(2);
  });

  it('refuses a job whose expected wait exceeds the maximum, with the wait as Retry-After', async () => {
    const lane = faultLane({ maxWaitMs: 1000 });
    // Teach the lane that fault.sleep takes about 800 ms.
    await lane.run('fault.sleep', { ms: 800 });
    const running = lane.run('fault.sleep', { ms: 800 });
    const queued = lane.run('fault.sleep', { ms: 800 });
    // Ahead: ~800 ms left of the running job plus ~800 ms queued, one worker: ~1.6 s > 1 s.
    const refused = await lane.run('fault.echo', 1).catch((e: unknown) => e);
    expect(codeOf(refused)).toBe('OVERLOADED');
    expect((refused as CoreError).details.retryAfterSeconds).toBeGreaterThanOrEqual(2);
    expect(lane.stats().expectedWaitMs).toBeGreaterThan(1000);
    await Promise.all([running, queued]);
  });
});

describe('WorkerLane: cancellation', () => {
  it('drops a queued job when its signal aborts, and never runs it', async () => {
    const lane = faultLane();
    await lane.start();
    const running = lane.run('fault.sleep', { ms: 200 });
    const abort = new AbortController();
    const queued = lane.run('fault.exit', undefined, { signal: abort.signal }).catch((e: unknown) => e);
    expect(lane.stats().queued).toBe(1);
    abort.abort(new Error('decided elsewhere'));
    expect(((await queued) as Error).message).toBe('decided elsewhere');
    expect(lane.stats().queued).toBe(0);
    await running;
    // Had the queued fault.exit run, the worker would have been replaced.
    expect(await lane.run('fault.echo', 'alive')).toBe('alive');
    expect(lane.stats().replaced).toBe(0);
  });

  it('flags a running job: a synchronous handler polling the flag stops early, the caller is answered at once', async () => {
    const lane = faultLane();
    const abort = new AbortController();
    const started = performance.now();
    const running = lane.run('fault.spin', { ms: 20_000 }, { signal: abort.signal }).catch((e: unknown) => e);
    while (lane.stats().busy === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    abort.abort(new Error('cancelled'));
    expect(((await running) as Error).message).toBe('cancelled');
    // The worker stops spinning and serves the next job long before the 20 s the job asked for.
    expect(await lane.run('fault.echo', 'next')).toBe('next');
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(lane.stats().replaced).toBe(0);
  });

  it('refuses a job whose signal is already aborted', async () => {
    const lane = faultLane();
    const abort = new AbortController();
    abort.abort(new Error('too late'));
    await expect(lane.run('fault.echo', 1, { signal: abort.signal })).rejects.toThrow('too late');
  });
});

describe('WorkerLane: start failures', () => {
  it('stops respawning workers that keep failing to start and reports that it cannot serve', async () => {
    const lane = faultLane({ init: { 'test-faults': { failStart: 'throw' } }, maxStartFailures: 3 });
    const first = await lane.run('fault.echo', 1).catch((e: unknown) => e);
    expect(codeOf(first)).toBe('ENGINE_UNAVAILABLE');
    expect(lane.stats()).toMatchObject({ state: 'failed', startFailures: 3, workers: 0 });
    expect(lane.stats().lastFailure?.reason).toMatch(/injected start failure/);
    // Later jobs are refused at once, with a Retry-After, instead of starting workers again.
    const later = await lane.run('fault.echo', 2).catch((e: unknown) => e);
    expect(codeOf(later)).toBe('ENGINE_UNAVAILABLE');
    expect((later as CoreError).details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(lane.stats().workers).toBe(0);
  });

  it('tries one start again after the cooldown', async () => {
    const lane = faultLane({
      init: { 'test-faults': { failStart: 'exit' } },
      maxStartFailures: 2,
      restartCooldownMs: 200,
    });
    await lane.run('fault.echo', 1).catch(() => undefined);
    expect(lane.stats().state).toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 250));
    const retried = await lane.run('fault.echo', 2).catch((e: unknown) => e);
    expect(codeOf(retried)).toBe('ENGINE_UNAVAILABLE');
    // One attempt, then it gives up again.
    expect(lane.stats()).toMatchObject({ state: 'failed', startFailures: 2 });
  });

  it('start() rejects with the reason a worker could not start', async () => {
    const lane = faultLane({ init: { 'test-faults': { failStart: 'throw' } } });
    await expect(lane.start()).rejects.toThrow('injected start failure');
  });

  it('start() resolves when every worker is ready', async () => {
    const lane = faultLane({ size: 2 });
    await lane.start();
    expect(lane.stats()).toMatchObject({ state: 'ready', workers: 2, starting: 0 });
  });

  it('refuses work after close', async () => {
    const lane = faultLane();
    await lane.run('fault.echo', 1);
    await lane.close();
    const refused = await lane.run('fault.echo', 2).catch((e: unknown) => e);
    expect(codeOf(refused)).toBe('ENGINE_UNAVAILABLE');
    expect(lane.stats().state).toBe('closed');
  });
});
