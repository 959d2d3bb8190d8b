import type { FingerprintFeatures } from '../types.js';
import { consolidate, ROTATION_LIMIT, scoreAlignment, untwist } from './consolidate.js';
import { wrapAngle } from './geometry.js';
import { localSimilarity } from './local.js';
import { preparePrint, type PreparedPrint } from './prepare.js';

/**
 * How the two impressions may be turned against each other: 'upright' for a reader fixed in place (a finger is
 * laid on it roughly the same way each time), 'any' for one that may face any way (setting `fingerprint.turn`).
 */
export type FingerTurn = 'upright' | 'any';

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
 * The SEEDS pairs of highest local similarity (positive only) whose minutiae turn by less than `limit`, best
 * first, ties in pair order: one pass keeping a short sorted list, rather than sorting every positive pair (a fifth
 * of a comparison's time).
 */
function bestSeeds(local: Float32Array, a: PreparedPrint, b: PreparedPrint, limit: number): number[] {
  const top: number[] = [];
  for (let k = 0; k < local.length; k++) {
    const v = local[k]!;
    if (!(v > 0)) continue;
    // Pairs come in increasing order, so an equal value goes after those already kept.
    if (top.length === SEEDS && v <= local[top[SEEDS - 1]!]!) continue;
    const i = Math.floor(k / b.n);
    if (Math.abs(wrapAngle(b.dir[k - i * b.n]! - a.dir[i]!)) >= limit) continue;
    let at = top.length;
    while (at > 0 && local[top[at - 1]!]! < v) at--;
    top.splice(at, 0, k);
    if (top.length > SEEDS) top.pop();
  }
  return top;
}

/**
 * Similarity of two fingerprints, >= 0, higher is more similar (calibrated to a false-match rate by
 * calibration.ts). Local neighbour stars propose candidate minutia pairs; each of the best seeds aligns the prints
 * (rotation, translation, with a tolerance that grows away from the anchor to absorb skin distortion) and the
 * best consolidated pairing wins. With `turn` 'upright' (the default), alignments that turn the finger by more than
 * 60 degrees score less, and past 120 degrees nothing (consolidate.ts); 'any' takes every turn alike, for readers
 * that are not fixed in place. Each has its own calibration (calibration.ts). Works on minutiae alone (e.g.
 * features imported from ISO templates).
 */
export function compareFeatures(
  a: FingerprintFeatures,
  b: FingerprintFeatures,
  turn: FingerTurn = 'upright',
): number {
  const pa = preparedPrint(a);
  const pb = preparedPrint(b);
  if (pa.n < 2 || pb.n < 2) return 0;
  const local = localSimilarity(pa, pb);
  const order = bestSeeds(local, pa, pb, turn === 'any' ? Infinity : ROTATION_LIMIT);
  // Each seed's alignment, best bound first. The map factors are at most 1, so once a bound is no better than the
  // best score found no later alignment can win, and the maps (the dearest part) are not compared for them.
  const aligned = order
    .map((k) => consolidate(pa, pb, local, Math.floor(k / pb.n), k % pb.n, turn))
    .sort((p, q) => q.bound - p.bound);
  // Only the leading alignment is paired again under the skin's local turn: untwisting more did no better and costs a
  // pairing each.
  if (aligned.length > 0) {
    aligned[0] = untwist(pa, pb, local, aligned[0]!);
    aligned.sort((p, q) => q.bound - p.bound);
  }
  let best = 0;
  for (const alignment of aligned) {
    if (alignment.bound <= best) break;
    best = Math.max(best, scoreAlignment(pa, pb, alignment, best));
  }
  return Math.round(best * 1e4) / 100;
}
