import { describe, expect, it } from 'vitest';
import { createPrng } from '../../math/prng.js';
import { bestByRotation, kthSmallest, ROTATION_BINS } from './rotation-votes.js';
import { SlotTable } from './slots.js';

describe('rotation votes', () => {
  it('selects the k-th smallest value as a sort would, with many ties', () => {
    const rng = createPrng(7);
    for (const [n, levels] of [
      [1, 3],
      [2, 2],
      [50, 4],
      [1000, 1000],
      [5000, 7],
    ] as const) {
      const values = Float32Array.from({ length: n }, () => Math.floor(rng.next() * levels) / 3);
      const sorted = values.slice().sort();
      for (const k of [0, n >> 1, n - 1, Math.floor(n * 0.9)])
        expect(kthSmallest(values.slice(), k)).toBe(sorted[k]);
    }
    expect(() => kthSmallest(new Float32Array(3), 3)).toThrow(RangeError);
  });

  it('ranks enrollments by their best rotation bin, ties to the lower id, leaving out those without a vote', () => {
    // Slots in the order enrollments came: not the order of their ids.
    const slots = new SlotTable();
    for (const id of [50, 20, 30, 40, 10]) slots.assign(id);
    const votes = new Float32Array(5 * ROTATION_BINS);
    const vote = (id: number, bin: number, weight: number): void => {
      votes[slots.slot(id)! * ROTATION_BINS + bin] = weight;
    };
    vote(50, 0, 1);
    vote(50, 5, 2);
    vote(20, 3, 4);
    vote(30, 9, 2);
    vote(40, 15, 3);
    vote(10, 1, 2);
    expect(bestByRotation(votes, slots, 10)).toEqual([20, 40, 10, 30, 50]);
    expect(bestByRotation(votes, slots, 2)).toEqual([20, 40]);
    expect(bestByRotation(votes, slots, 3)).toEqual([20, 40, 10]);
    expect(bestByRotation(votes, slots, 0)).toEqual([]);
    // A released enrollment is not ranked, whatever its slot still holds.
    slots.release(40);
    expect(bestByRotation(votes, slots, 3)).toEqual([20, 10, 30]);
  });

  it('ranks by the scaled vote when a scale is given', () => {
    const slots = new SlotTable();
    for (const id of [1, 2, 3]) slots.assign(id);
    const votes = new Float32Array(3 * ROTATION_BINS);
    votes[0 * ROTATION_BINS + 2] = 6;
    votes[1 * ROTATION_BINS + 7] = 4;
    votes[2 * ROTATION_BINS + 0] = 5;
    expect(bestByRotation(votes, slots, 3)).toEqual([1, 3, 2]);
    // Enrollment 1 voted with many minutiae, 2 with few: 6 x 0.5 = 3 < 4 x 1 = 4 < 5 x 1.
    expect(bestByRotation(votes, slots, 3, Float32Array.from([0.5, 1, 1]))).toEqual([3, 2, 1]);
  });
});
