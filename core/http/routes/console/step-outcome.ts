import type { StepResult } from '../../../contracts/step-result.js';
import type { CalibrationPoint, StepName, StepOutcome } from './api-types.js';

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * A step result as the console shows it: the threshold with its calibrated "1 in N" (the calibration point at that
 * threshold) and how rare the score is among impostors (from the engine's estimated FMR of the score).
 */
export function toOutcome(step: StepName, result: StepResult, calibration?: CalibrationPoint[]): StepOutcome {
  const extra = result.extra ?? {};
  const threshold = num(extra.threshold);
  const fmr = num(extra.estimated_fmr) ?? num(extra.fmr);
  const scoreOneInN = fmr && fmr > 0 ? Math.round(1 / fmr) : undefined;
  const point =
    threshold === undefined
      ? undefined
      : calibration?.find(
          (p) => Math.abs(p.threshold - threshold) <= 1e-3 * Math.max(1, Math.abs(threshold)),
        );
  const thresholdOneInN = num(extra.threshold_one_in_n) ?? point?.oneInN;
  return {
    step,
    status: result.status,
    score: result.score,
    message: result.message,
    ...(result.reason ? { reason: result.reason } : {}),
    ...(threshold === undefined ? {} : { threshold }),
    ...(thresholdOneInN === undefined ? {} : { thresholdOneInN }),
    ...(scoreOneInN === undefined ? {} : { scoreOneInN }),
    extra,
  };
}
