/** What every engine port shares: a step's outcome, a matcher's operating points, a health document. */

/** Outcome of one check, shaped as SPEC 2.3's per-step object plus product extras. */
export interface StepResult {
  status: 'SUCCESS' | 'REJECTED';
  score: number;
  message: string;
  /** Machine-readable reason on rejection (DESIGN.md): no_match, not_enrolled, reenrollment_required, ... */
  reason?: string;
  /** Step-specific extra fields (threshold, estimated_fmr, face boxes, region, ...). */
  extra?: Record<string, unknown>;
}

/** One selectable operating point of a matcher: a score threshold and its measured "1 false match in N". */
export interface CalibrationPoint {
  oneInN: number;
  threshold: number;
}

/** A matcher's published operating points and where they were measured. */
export interface Calibration {
  source: string;
  points: CalibrationPoint[];
}

/** What an engine tells its sub-service's health route (models, queue, index state; `status: 'error'` fails it). */
export type EngineHealth = Record<string, unknown>;

/** The "1 false match in N" operating points every matcher publishes for the console's threshold picker. */
export const ONE_IN_N_CHOICES: readonly number[] = [100, 1_000, 10_000, 100_000, 1_000_000];
