import { describe, expect, it } from 'vitest';
import { DecodeBudget } from './decode-budget.js';

describe('DecodeBudget', () => {
  it('grants what fits at once and lets waiters in, first come first served, as leases are released', async () => {
    const budget = new DecodeBudget({ bytes: 100, maxWaitMs: 5000 });
    const a = budget.lease();
    await a.reserve(60);
    const b = budget.lease();
    const c = budget.lease();
    const order: string[] = [];
    const bDone = b.reserve(50).then(() => order.push('b'));
    // c would fit beside a, but b waits ahead of it.
    const cDone = c.reserve(30).then(() => order.push('c'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    expect(budget.stats()).toMatchObject({ used: 60, waiting: 2 });
    a.release();
    await Promise.all([bDone, cDone]);
    expect(order).toEqual(['b', 'c']);
    expect(budget.stats()).toMatchObject({ used: 80, peak: 80, waiting: 0 });
    b.release();
    c.release();
    c.release();
    expect(budget.stats().used).toBe(0);
  });

  it('refuses with 503 and Retry-After after the longest wait, and drops a waiter whose client left', async () => {
    const budget = new DecodeBudget({ bytes: 100, maxWaitMs: 50 });
    await budget.lease().reserve(100);
    await expect(budget.lease().reserve(10)).rejects.toMatchObject({
      code: 'OVERLOADED',
      details: { retryAfterSeconds: 1 },
    });
    const left = new AbortController();
    const waiting = budget.lease().reserve(10, left.signal);
    left.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(budget.stats()).toMatchObject({ used: 100, waiting: 0, refused: 1 });
  });

  it('lets one reservation larger than the whole budget run alone rather than never', async () => {
    const budget = new DecodeBudget({ bytes: 100, maxWaitMs: 1000 });
    const big = budget.lease();
    await big.reserve(500);
    const small = budget.lease().reserve(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(budget.stats().waiting).toBe(1);
    big.release();
    await small;
    expect(budget.stats().used).toBe(1);
  });
});
