import { log10FmrAt, scoreAtLog10Fmr } from './calibration-fit.js';
import { CALIBRATION, CALIBRATION_ANY_TURN } from './calibration-table.js';
import type { FingerTurn } from './match/index.js';

// The version lives in model-version.ts; re-exported for service.ts's import.
export { FINGERPRINT_MODEL_VERSION } from './model-version.js';

/** Default decision point: accept when the estimated false-match rate is at most 1 in 10,000. */
export const DEFAULT_FMR = 1e-4;

/**
 * The calibration of the matcher's scores under a turn setting: a matcher that tries every turn finds better chance
 * alignments with another finger, so the same false-match rate needs a higher score.
 */
export function calibrationFor(turn: FingerTurn = 'upright') {
  return turn === 'any' ? CALIBRATION_ANY_TURN : CALIBRATION;
}

/**
 * Estimated false-match rate of a 1:1 comparison score (from the impostor scores of `npm run eval:fingerprint`,
 * pooled over the four FVC sets, with an exponential tail past the measured range), for scores compared under the
 * given turn setting. In (0, 1], decreasing.
 */
export function estimateFmr(score: number, turn: FingerTurn = 'upright'): number {
  return Math.min(1, Math.max(1e-15, 10 ** log10FmrAt(calibrationFor(turn), score)));
}

/** The decision threshold (score) that yields the given false-match rate, e.g. scoreAtFmr(DEFAULT_FMR). */
export function scoreAtFmr(fmr: number, turn: FingerTurn = 'upright'): number {
  const clamped = Math.min(1, Math.max(1e-15, fmr));
  return scoreAtLog10Fmr(calibrationFor(turn), Math.log10(clamped));
}
