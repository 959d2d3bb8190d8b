import type { LoadModelOptions } from '../../models/registry.js';
import { loadDetector, type DetectorRunner } from './detector.js';
import { loadEmbedder, type EmbedRunner } from './embedder.js';
import { loadEyeModel, type EyeRunner } from './eye-model.js';
import { FaceInference, type FaceWorkerOptions } from './inference-lane.js';
import { loadLandmarker, type LandmarkRunner } from './landmarker.js';
import { loadLivenessModel, type LivenessRunner } from './liveness-model.js';

/** The five face models, in the order the workers load them. */
export const FACE_MODEL_NAMES = ['fr_detect', 'fr_landmark', 'fr_feature', 'fr_liveness', 'fr_eye'] as const;

/** Every model the face engine runs, loaded once per face worker and shared by all requests. */
export interface FaceModels {
  detector: DetectorRunner;
  landmarker: LandmarkRunner;
  embedder: EmbedRunner;
  liveness: LivenessRunner;
  eye: EyeRunner;
  /** The face workers that hold the sessions. */
  inference: FaceInference;
}

/**
 * Start the face workers and load and warm up the five face models in each; any failure (missing file, digest,
 * shape) rejects at once. `workers` tunes the face lane (or pass workers already opened as `inference`).
 */
export async function loadFaceModels(
  options: LoadModelOptions = {},
  workers: FaceWorkerOptions | FaceInference = {},
): Promise<FaceModels> {
  const inference =
    workers instanceof FaceInference ? workers : await FaceInference.open(FACE_MODEL_NAMES, options, workers);
  const shared = { ...options, inference };
  return {
    detector: await loadDetector(shared),
    landmarker: await loadLandmarker(shared),
    embedder: await loadEmbedder(shared),
    liveness: await loadLivenessModel(shared),
    eye: await loadEyeModel(shared),
    inference,
  };
}

/** Stop the face workers of `loadFaceModels` (each releases its sessions). */
export async function disposeFaceModels(models: FaceModels): Promise<void> {
  await models.inference.close();
}
