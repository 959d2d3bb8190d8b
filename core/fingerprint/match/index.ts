import type { FingerprintFeatures } from '../types.js';
import { consolidate } from './consolidate.js';
import { localSimilarity } from './local.js';
import { preparePrint, type PreparedPrint } from './prepare.js';

/** Seed pairs tried for alignment, best local similarity first. */
const SEEDS = 12;

// Preparing a print costs O(n^2); templates compared many times (1:N) reuse it.
const prepared = new WeakMap<FingerprintFeatures, PreparedPrint>();

/** The matcher's view of a feature set, prepared once per features object (also used by the 1:N star edges). */
export function preparedPrint(features: FingerprintFeatures): PreparedPrint {
  let p = prepared.get(features);
  if (!p) {
    p = preparePrint(features);
    prepared.set(features, p);
  }
  return p;
}

/**
 * Similarity of two fingerprints, >= 0, higher is more similar (calibrated to a false-match rate by
 * calibration.ts). Local neighbour stars propose candidate minutia pairs; each of the best seeds aligns the prints
 * (rotation, translation, with a tolerance that grows away from the anchor to absorb skin distortion) and the
 * best consolidated pairing wins. Works on minutiae alone (e.g. features imported from ISO templates).
 */
export function compareFeatures(a: FingerprintFeatures, b: FingerprintFeatures): number {
  const pa = preparedPrint(a);
  const pb = preparedPrint(b);
  if (pa.n < 2 || pb.n < 2) return 0;
  const local = localSimilarity(pa, pb);
  const order: number[] = [];
  for (let k = 0; k < local.length; k++) if (local[k]! > 0) order.push(k);
  order.sort((p, q) => local[q]! - local[p]! || p - q);
  let best = 0;
  for (let s = 0; s < Math.min(SEEDS, order.length); s++) {
    const k = order[s]!;
    const result = consolidate(pa, pb, local, Math.floor(k / pb.n), k % pb.n);
    if (result.score > best) best = result.score;
  }
  return Math.round(best * 1e4) / 100;
}
