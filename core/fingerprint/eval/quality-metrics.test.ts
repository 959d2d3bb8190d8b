import { describe, expect, it } from 'vitest';
import { qualityUtility, spearman, type ScoredPair } from './quality-metrics.js';

describe('spearman', () => {
  it('is 1 for any increasing relation and -1 for a decreasing one', () => {
    expect(spearman([1, 2, 3, 4], [10, 100, 1000, 10000])).toBeCloseTo(1, 10);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 10);
  });

  it('gives ties their mean rank, and 0 for a constant series', () => {
    expect(spearman([1, 1, 2], [1, 2, 3])).toBeCloseTo(Math.sqrt(3) / 2, 10);
    expect(spearman([5, 5, 5], [1, 2, 3])).toBe(0);
  });
});

describe('qualityUtility', () => {
  it('correlates the lower quality of genuine pairs with their score and drops the lowest-quality images', () => {
    // Image 0 is poor and makes its genuine pair fail; without it genuine and impostor scores separate.
    const qualities = [5, 60, 70, 80, 90, 95];
    const pairs: ScoredPair[] = [
      { a: 0, b: 1, score: 1, genuine: true },
      { a: 2, b: 3, score: 50, genuine: true },
      { a: 4, b: 5, score: 80, genuine: true },
      { a: 0, b: 2, score: 10, genuine: false },
      { a: 1, b: 3, score: 5, genuine: false },
      { a: 2, b: 4, score: 3, genuine: false },
    ];
    const u = qualityUtility(qualities, pairs, 0.1);
    expect(u.genuineSpearman).toBeCloseTo(1, 10);
    expect(u.dropped).toBe(1);
    expect(u.eerAfterDrop).toBe(0);
  });
});
