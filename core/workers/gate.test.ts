import { afterAll, describe, expect, it } from 'vitest';
import { CoreError, isCoreError } from '../errors.js';
import { activeJobs } from './activity.js';
import { OperationGate } from './gate.js';
import { WorkerLane } from './lane.js';
import type { faultHandlers } from './testing/fault-handlers.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const codeOf = (error: unknown): string | undefined => (isCoreError(error) ? error.code : undefined);

describe('OperationGate', () => {
  it('runs at most `concurrency` operations, queues up to `maxQueue`, refuses the next with OVERLOADED', async () => {
    const gate = new OperationGate({
      concurrency: 1,
      maxQueue: 1,
      maxWaitMs: Infinity,
      label: 'test engine',
    });
    const gateOpen = deferred();
    const order: number[] = [];
    const first = gate.run('op', async () => {
      await gateOpen.promise;
      order.push(1);
    });
    const second = gate.run('op', () => {
      order.push(2);
      return Promise.resolve();
    });
    expect(gate.stats()).toMatchObject({ running: 1, queued: 1 });
    const third = await gate.run('op', () => Promise.resolve()).catch((e: unknown) => e);
    expect(codeOf(third)).toBe('OVERLOADED');
    expect((third as CoreError).details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    gateOpen.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual([1, 2]);
    expect(gate.stats()).toMatchObject({ running: 0, queued: 0 });
  });

  it('refuses an operation that would wait longer than maxWaitMs, going by the measured mean', async () => {
    const gate = new OperationGate({ concurrency: 1, maxQueue: 10, maxWaitMs: 100, label: 'test engine' });
    await gate.run('slow', () => new Promise((resolve) => setTimeout(resolve, 150)));
    const holding = deferred();
    const running = gate.run('slow', () => holding.promise);
    const refused = await gate.run('slow', () => Promise.resolve()).catch((e: unknown) => e);
    expect(codeOf(refused)).toBe('OVERLOADED');
    holding.resolve();
    await running;
    // Free again: admitted at once whatever the mean.
    await expect(gate.run('slow', () => Promise.resolve(7))).resolves.toBe(7);
  });

  it('frees the slot when an operation throws, and drops a waiting one whose signal aborts', async () => {
    const gate = new OperationGate({
      concurrency: 1,
      maxQueue: 4,
      maxWaitMs: Infinity,
      label: 'test engine',
    });
    await expect(gate.run('op', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const holding = deferred();
    const running = gate.run('op', () => holding.promise);
    const abort = new AbortController();
    let ran = false;
    const waiting = gate.run(
      'op',
      () => {
        ran = true;
        return Promise.resolve();
      },
      abort.signal,
    );
    abort.abort(new Error('not needed'));
    await expect(waiting).rejects.toThrow('not needed');
    holding.resolve();
    await running;
    expect(ran).toBe(false);
    expect(gate.stats()).toMatchObject({ running: 0, queued: 0 });
  });

  it('counts its running operations as work in progress when asked, and only while they run', async () => {
    const counting = new OperationGate({
      concurrency: 1,
      maxQueue: 1,
      maxWaitMs: Infinity,
      label: 'counting',
      countsAsWork: true,
    });
    const plain = new OperationGate({ concurrency: 1, maxQueue: 1, maxWaitMs: Infinity, label: 'plain' });
    const before = activeJobs();
    let during = -1;
    await counting.run('op', () => {
      during = activeJobs();
      return Promise.resolve();
    });
    expect(during).toBe(before + 1);
    await expect(counting.run('op', () => Promise.reject(new Error('failed operation')))).rejects.toThrow(
      'failed operation',
    );
    expect(activeJobs()).toBe(before);
    await plain.run('op', () => {
      during = activeJobs();
      return Promise.resolve();
    });
    expect(during).toBe(before);
  });

  it('refuses at once when its backend cannot serve', async () => {
    const down = new CoreError('ENGINE_UNAVAILABLE', 'down', { retryAfterSeconds: 9 });
    const gate = new OperationGate(
      { concurrency: 1, maxQueue: 4, maxWaitMs: Infinity, label: 'test engine' },
      () => down,
    );
    await expect(gate.run('op', () => Promise.resolve())).rejects.toBe(down);
  });

  describe('with a worker lane', () => {
    const lane = new WorkerLane<typeof faultHandlers>({
      name: 'faults',
      label: 'fault lane',
      groups: ['test-faults'],
      size: 1,
      maxQueue: 8,
      maxWaitMs: Infinity,
      timeoutMs: 30_000,
    });
    afterAll(async () => lane.close());

    it("cancels the worker jobs an operation started when the operation's signal aborts", async () => {
      await lane.start();
      const gate = new OperationGate({
        concurrency: 1,
        maxQueue: 4,
        maxWaitMs: Infinity,
        label: 'test engine',
      });
      const abort = new AbortController();
      const started = performance.now();
      // The jobs inherit the operation's signal without being given it.
      const operation = gate.run(
        'op',
        () => Promise.all([lane.run('fault.spin', { ms: 20_000 }), lane.run('fault.echo', 'queued')]),
        abort.signal,
      );
      while (lane.stats().busy === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      abort.abort(new Error('decided'));
      await expect(operation).rejects.toThrow('decided');
      expect(lane.stats().queued).toBe(0);
      expect(await lane.run('fault.echo', 'after')).toBe('after');
      expect(performance.now() - started).toBeLessThan(15_000);
    });
  });
});
