import { describe, expect, it } from 'vitest';
import { errorRates, percentiles } from './metrics.js';

describe('errorRates', () => {
  it('is all zero when genuine and impostor scores are separated', () => {
    expect(errorRates([5, 6, 7, 8], [1, 2, 3, 4])).toEqual({ eer: 0, fmr100: 0, fmr1000: 0, zeroFmr: 0 });
  });

  it('finds the crossing of FMR and FNMR on overlapping scores', () => {
    const genuine = [1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
    const impostor = [0, 2, 4, 6, 8, 10, 12, 14, 16, 18];
    const r = errorRates(genuine, impostor);
    // At threshold 10 half of each side is on the wrong side of it.
    expect(r.eer).toBeCloseTo(50, 5);
    // No false match only above 18: nine of ten genuine scores are rejected.
    expect(r.zeroFmr).toBeCloseTo(90, 5);
  });

  it('reports the median and p95', () => {
    expect(percentiles([5, 1, 3, 2, 4])).toEqual({ p50: 3, p95: 4 });
  });
});
