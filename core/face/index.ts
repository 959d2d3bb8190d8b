import type { Settings } from '../settings/settings.js';
import { readFmrCalibration, readLivenessCalibration } from './calibration-store.js';
import { DEFAULT_FACE_CONFIG, type FaceEngineConfig } from './config.js';
import { FaceEngineImpl } from './engine.js';
import { loadFaceModels } from './models/load-all.js';
import type { FaceInference, FaceWorkerOptions } from './models/inference-lane.js';

export { FaceEngineImpl, DEFAULT_FMR, type FaceCallOptions } from './engine.js';
export { FaceInference, type FaceWorkerOptions } from './models/inference-lane.js';
export { FACE_MODEL_NAMES } from './models/load-all.js';
export type { DetectedFace, FaceBox, Point } from './types.js';
export type { QualityReport } from './pipeline/assess.js';
export type { QualityCheck, QualityReason } from './pipeline/quality.js';
export type { FaceEngineConfig } from './config.js';

/** Options of `createFaceEngine`. */
export interface CreateFaceEngineOptions {
  /** Operator settings (`face.thresholdOneInN`); without it the default FMR 1e-3 threshold applies. */
  settings?: Settings;
  /** Overrides of the measured defaults (tests and evaluations). */
  config?: Partial<FaceEngineConfig>;
  /** Face lane settings, or face workers already opened with the five models (tests). */
  workers?: FaceWorkerOptions | FaceInference;
}

/**
 * Load the five face models (sha256- and shape-checked, warmed up) and the committed calibrations, and return the
 * engine. Rejects at once when a model or calibration is missing or wrong: the server must not start half-blind.
 */
export async function createFaceEngine(options: CreateFaceEngineOptions = {}): Promise<FaceEngineImpl> {
  const calibration = readFmrCalibration();
  const liveness = readLivenessCalibration();
  const models = await loadFaceModels({}, options.workers);
  const config = { ...DEFAULT_FACE_CONFIG, ...options.config };
  return new FaceEngineImpl(models, calibration, liveness, config, options.settings);
}
