import { describe, expect, it } from 'vitest';
import { isCoreError } from '../errors.js';
import { BoundedQueue } from './queue.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('BoundedQueue', () => {
  it('runs at most `concurrency` jobs, queues up to `maxPending`, and refuses the next with OVERLOADED', async () => {
    const queue = new BoundedQueue({ concurrency: 1, maxPending: 1, retryAfterSeconds: 2 });
    const gate = deferred();
    const order: number[] = [];
    const first = queue.run(async () => {
      await gate.promise;
      order.push(1);
    });
    const second = queue.run(() => {
      order.push(2);
      return Promise.resolve();
    });
    expect(queue.load).toEqual({ running: 1, waiting: 1 });
    const third = queue.run(() => Promise.resolve());
    await expect(third).rejects.toSatisfy(
      (e: unknown) => isCoreError(e) && e.code === 'OVERLOADED' && e.details.retryAfterSeconds === 2,
    );
    gate.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual([1, 2]);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot when a job throws', async () => {
    const queue = new BoundedQueue({ concurrency: 1, maxPending: 0, retryAfterSeconds: 1 });
    await expect(queue.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(queue.run(() => Promise.resolve(7))).resolves.toBe(7);
  });
});
