import { extractFeatures } from '../extract/index.js';
import { compareFeatures, type FingerTurn } from '../match/index.js';
import type { FingerprintFeatures } from '../types.js';
import type { Impression } from './dataset.js';
import { errorRates, percentiles, type ErrorRates } from './metrics.js';
import { qualityUtility, type QualityUtility } from './quality-metrics.js';

/** Figures for one set under the FVC "all" protocol. */
export interface SetResult extends ErrorRates, QualityUtility {
  name: string;
  extractMsP50: number;
  matchMsP50: number;
  failures: number;
  /** Impressions the not-a-fingerprint check refused (counted among the failures). */
  refused: number;
  genuine: number[];
  impostor: number[];
  /** The impostor scores compared with the turn 'any' (calibration only; empty unless asked for). */
  impostorAnyTurn: number[];
}

/**
 * Extract every impression, then compare every same-finger pair (genuine) and every cross-finger pair
 * (impostor), with the given turn setting ('upright' by default). A failed extraction counts as the worst score (0)
 * in all its comparisons, and as quality 0; so does an impression the not-a-fingerprint check refuses. `anyTurn` also scores the impostor pairs with the turn 'any', for its
 * calibration.
 */
export function runSet(
  name: string,
  impressions: Impression[],
  options?: { turn?: FingerTurn; anyTurn?: boolean },
): SetResult {
  const features: (FingerprintFeatures | undefined)[] = [];
  const qualities: number[] = [];
  const extractMs: number[] = [];
  let failures = 0;
  let refused = 0;
  for (const imp of impressions) {
    const t0 = performance.now();
    let f: FingerprintFeatures | undefined;
    try {
      f = extractFeatures(imp.image);
    } catch {
      f = undefined;
    }
    extractMs.push(performance.now() - t0);
    if (f?.likeness?.isFingerprint === false) refused++;
    if (f && f.minutiae.length === 0) f = undefined;
    if (!f) failures++;
    features.push(f);
    qualities.push(f?.quality ?? 0);
  }
  const pairs: { a: number; b: number; score: number; genuine: boolean }[] = [];
  const impostorAnyTurn: number[] = [];
  const matchMs: number[] = [];
  for (let i = 0; i < impressions.length; i++) {
    for (let j = i + 1; j < impressions.length; j++) {
      const fa = features[i];
      const fb = features[j];
      let score = 0;
      if (fa && fb) {
        const t0 = performance.now();
        score = compareFeatures(fa, fb, options?.turn);
        matchMs.push(performance.now() - t0);
      }
      const genuine = impressions[i]!.finger === impressions[j]!.finger;
      pairs.push({ a: i, b: j, score, genuine });
      if (!genuine && options?.anyTurn) impostorAnyTurn.push(fa && fb ? compareFeatures(fa, fb, 'any') : 0);
    }
  }
  const genuine = pairs.filter((p) => p.genuine).map((p) => p.score);
  const impostor = pairs.filter((p) => !p.genuine).map((p) => p.score);
  return {
    name,
    ...errorRates(genuine, impostor),
    ...qualityUtility(qualities, pairs),
    extractMsP50: percentiles(extractMs).p50,
    matchMsP50: percentiles(matchMs).p50,
    failures,
    refused,
    genuine,
    impostor,
    impostorAnyTurn,
  };
}
