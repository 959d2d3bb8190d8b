import { describe, expect, it } from 'vitest';
import { fitCalibration, log10FmrAt, scoreAtLog10Fmr } from './calibration-fit.js';
import { DEFAULT_FMR, estimateFmr, scoreAtFmr } from './calibration.js';

describe('calibration table', () => {
  // 10,000 impostor scores with an exponential tail, as a matcher produces.
  const scores = Array.from({ length: 10_000 }, (_, k) => -Math.log(1 - (k + 0.5) / 10_000) * 2);
  const table = fitCalibration(scores, 'test');

  it('matches the empirical false-match rate inside the data and keeps falling past it', () => {
    expect(10 ** log10FmrAt(table, 2 * Math.log(100))).toBeCloseTo(0.01, 2);
    expect(log10FmrAt(table, 30)).toBeLessThan(log10FmrAt(table, 20));
    expect(log10FmrAt(table, 20)).toBeLessThan(-4);
  });

  it('inverts: scoreAtLog10Fmr(log10FmrAt(s)) = s', () => {
    for (const s of [1, 5, 9, 15, 25]) expect(scoreAtLog10Fmr(table, log10FmrAt(table, s))).toBeCloseTo(s, 6);
  });

  it('the shipped table is monotone and its default threshold sits at FMR 1e-4', () => {
    const t = scoreAtFmr(DEFAULT_FMR);
    expect(estimateFmr(t)).toBeCloseTo(DEFAULT_FMR, 8);
    expect(estimateFmr(t * 2 + 1)).toBeLessThan(DEFAULT_FMR);
    expect(scoreAtFmr(1e-2)).toBeLessThan(scoreAtFmr(1e-3));
    expect(scoreAtFmr(1e-6)).toBeGreaterThan(t);
    let last = 1;
    for (let s = 0; s < 200; s += 0.5) {
      const f = estimateFmr(s);
      expect(f).toBeLessThanOrEqual(last);
      last = f;
    }
  });
});
