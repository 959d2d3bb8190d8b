import { describe, expect, it } from 'vitest';
import { createPrng } from '../../math/prng.js';
import { bestByRotation, kthSmallest, ROTATION_BINS } from './rotation-votes.js';

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
    const members = new Set([1, 2, 3, 4, 5]);
    const votes = new Float32Array(6 * ROTATION_BINS);
    const vote = (id: number, bin: number, weight: number): void => {
      votes[id * ROTATION_BINS + bin] = weight;
    };
    vote(1, 0, 1);
    vote(1, 5, 2);
    vote(2, 3, 4);
    vote(3, 9, 2);
    vote(4, 15, 3);
    expect(bestByRotation(votes, members, 10)).toEqual([2, 4, 1, 3]);
    expect(bestByRotation(votes, members, 2)).toEqual([2, 4]);
    expect(bestByRotation(votes, members, 3)).toEqual([2, 4, 1]);
    expect(bestByRotation(votes, members, 0)).toEqual([]);
  });

  it('ranks by the scaled vote when a scale is given', () => {
    const members = new Set([1, 2, 3]);
    const votes = new Float32Array(4 * ROTATION_BINS);
    votes[1 * ROTATION_BINS + 2] = 6;
    votes[2 * ROTATION_BINS + 7] = 4;
    votes[3 * ROTATION_BINS + 0] = 5;
    expect(bestByRotation(votes, members, 3)).toEqual([1, 3, 2]);
    // Enrollment 1 voted with many minutiae, 2 with few: 6 x 0.5 = 3 < 4 x 1 = 4 < 5 x 1.
    expect(bestByRotation(votes, members, 3, Float32Array.from([0, 0.5, 1, 1]))).toEqual([3, 2, 1]);
  });
});
