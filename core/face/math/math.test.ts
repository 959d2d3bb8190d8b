import { describe, expect, it } from 'vitest';
import { buildCalibration, estimateFmr, thresholdForFmr } from './calibration.js';
import { auc, minAcerThreshold, padRates } from './pad-metrics.js';
import { accuracyAt, equalErrorRate, foldAccuracy, tarAtFar } from './roc.js';
import { softmax } from './softmax.js';

describe('softmax', () => {
  it('matches golden softmax values and survives large logits', () => {
    const p = softmax([1, 2, 3]);
    expect(p[0]).toBeCloseTo(0.09003057, 7);
    expect(p[2]).toBeCloseTo(0.66524096, 7);
    expect(softmax([1000, 1000])).toEqual([0.5, 0.5]);
  });
});

describe('calibration', () => {
  // Impostor scores spread uniformly on [0, 1): FMR(t) is about 1 - t.
  const impostors = Float64Array.from({ length: 10000 }, (_, i) => i / 10000);
  const cal = buildCalibration(impostors, 'test', 'uniform');
  it('reads FMR off the impostor distribution', () => {
    expect(estimateFmr(cal, 0.5)).toBeCloseTo(0.5, 2);
    expect(estimateFmr(cal, 0.99)).toBeCloseTo(0.01, 3);
    expect(estimateFmr(cal, -1)).toBe(1);
  });
  it('is monotone, extends with a tail and inverts', () => {
    let last = 2;
    for (let s = 0; s <= 1.2; s += 0.01) {
      const f = estimateFmr(cal, s);
      expect(f).toBeLessThanOrEqual(last);
      last = f;
    }
    expect(estimateFmr(cal, 1.1)).toBeLessThan(1e-3);
    for (const fmr of [0.1, 1e-2, 1e-3, 1e-5])
      expect(estimateFmr(cal, thresholdForFmr(cal, fmr))).toBeCloseTo(fmr, 8);
  });
});

describe('roc', () => {
  const genuine = [0.9, 0.8, 0.7, 0.35];
  const impostor = [0.1, 0.2, 0.3, 0.4, 0.5, 0.05, 0.15, 0.25, 0.02, 0.01];
  it('computes TAR at FAR against the (k+1)-th highest impostor', () => {
    expect(tarAtFar(genuine, impostor, 0.1)).toEqual({ tar: 0.75, threshold: 0.4 });
    expect(tarAtFar(genuine, impostor, 0)).toEqual({ tar: 0.75, threshold: 0.5 });
  });
  it('finds the EER', () => {
    // At 0.4: FAR 2/10, FRR 1/4, the closest pair.
    expect(equalErrorRate(genuine, impostor).eer).toBeCloseTo(0.225, 9);
  });
  it('cross-validates accuracy over folds', () => {
    const pairs = [
      { score: 0.9, genuine: true, fold: 0 },
      { score: 0.1, genuine: false, fold: 0 },
      { score: 0.8, genuine: true, fold: 1 },
      { score: 0.6, genuine: false, fold: 1 },
    ];
    expect(accuracyAt(pairs, 0.5)).toBe(0.75);
    const acc = foldAccuracy(pairs);
    expect(acc.perFold).toHaveLength(2);
    expect(acc.mean).toBeGreaterThan(0);
  });
});

describe('presentation-attack metrics', () => {
  const items = [
    { score: 0.9, bonaFide: true },
    { score: 0.8, bonaFide: true },
    { score: 0.4, bonaFide: true },
    { score: 0.6, bonaFide: false },
    { score: 0.2, bonaFide: false },
    { score: 0.1, bonaFide: false },
  ];
  it('computes APCER, BPCER and ACER at a threshold', () => {
    expect(padRates(items, 0.5)).toEqual({ threshold: 0.5, apcer: 1 / 3, bpcer: 1 / 3, acer: 1 / 3 });
  });
  it('computes the AUC by ranks (8 of 9 bona fide/attack pairs ordered right)', () => {
    expect(auc(items)).toBeCloseTo(8 / 9, 12);
    expect(
      auc([
        { score: 0.5, bonaFide: true },
        { score: 0.5, bonaFide: false },
      ]),
    ).toBe(0.5);
  });
  it('picks the threshold with the lowest ACER', () => {
    const best = minAcerThreshold(items);
    expect(best.acer).toBeCloseTo(1 / 6, 12);
    // Between 0.2 and 0.4 (one attack accepted) and between 0.6 and 0.8 (one bona fide rejected) tie: the first is kept.
    expect(best.threshold).toBeCloseTo(0.3, 9);
    expect(padRates(items, best.threshold)).toEqual(best);
  });
});
