import { describe, expect, it } from 'vitest';
import { mrzScore, type MrzReadingLike } from './mrz-feature.js';

function reading(valid: boolean, failed: number, confidence = 0.9): MrzReadingLike {
  const checks = Array.from({ length: 6 }, (_, i) => ({ name: `check${i}`, valid: i >= failed }));
  return { format: 'TD1', valid, checks, region: { x: 0, y: 0, width: 10, height: 10 }, confidence };
}

describe('mrzScore', () => {
  it('is the confidence of a valid MRZ, at least 0.5', () => {
    expect(mrzScore(reading(true, 0, 0.93))).toBe(0.93);
    expect(mrzScore(reading(true, 0, 0.2))).toBe(0.5);
  });

  it('stays below 0.5 with one wrong check digit, lower with more', () => {
    const one = mrzScore(reading(false, 1, 1));
    const three = mrzScore(reading(false, 3, 1));
    expect(one).toBeLessThan(0.5);
    expect(three).toBeLessThan(one);
  });
});
