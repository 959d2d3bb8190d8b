import type { StepResult } from '../../contracts/step-result.js';

/** The raw score range an engine reports for a stage. */
export interface ScoreRange {
  min: number;
  max: number;
}

/** Liveness scores are probabilities; face-match scores are cosine similarities. */
export const RAW_RANGES = {
  liveness: { min: 0, max: 1 },
  face_match: { min: -1, max: 1 },
} as const satisfies Record<string, ScoreRange>;

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/**
 * Map an engine score onto [0,1] so stages can be weighted together. When the engine reports the threshold it
 * decided with (`extra.threshold`), the map is piecewise linear with that threshold at 0.5: a score is then read
 * as "how far past the engine's own bar", whatever its scale. Otherwise the range maps linearly. Pure.
 */
export function normalizeScore(raw: number, range: ScoreRange, threshold?: number): number {
  const span = range.max - range.min;
  if (threshold === undefined || !(threshold > range.min && threshold < range.max)) {
    return clamp01((raw - range.min) / span);
  }
  const normalized =
    raw >= threshold
      ? 0.5 + (0.5 * (raw - threshold)) / (range.max - threshold)
      : (0.5 * (raw - range.min)) / (threshold - range.min);
  return Math.round(clamp01(normalized) * 1e4) / 1e4;
}

/** The engine's threshold from a step result's extras, when it reports one. */
export function thresholdOf(step: StepResult): number | undefined {
  const value = step.extra?.threshold;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Rejections where nothing was compared: the engine's score is a placeholder, not a measurement. */
export const NO_SCORE_REASONS: ReadonlySet<string> = new Set(['no_face_detected', 'poor_quality']);

/**
 * A step result with its score normalised and the raw score and threshold kept in `extra`. A rejection without a
 * measurement (no face, poor quality) is flagged `no_score` so it never feeds a combined score.
 */
export function normalizeStep(step: StepResult, range: ScoreRange): StepResult {
  if (!Number.isFinite(step.score)) return step;
  const threshold = thresholdOf(step);
  const noScore =
    step.status === 'REJECTED' && step.reason !== undefined && NO_SCORE_REASONS.has(step.reason);
  return {
    ...step,
    score: normalizeScore(step.score, range, threshold),
    extra: {
      raw_score: step.score,
      ...(threshold === undefined ? {} : { threshold }),
      ...(noScore ? { no_score: true } : {}),
    },
  };
}
