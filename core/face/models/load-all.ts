import type { LoadModelOptions } from '../../models/registry.js';
import { loadDetector, type DetectorRunner } from './detector.js';
import { loadEmbedder, type EmbedRunner } from './embedder.js';
import { loadEyeModel, type EyeRunner } from './eye-model.js';
import { loadLandmarker, type LandmarkRunner } from './landmarker.js';
import { loadLivenessModel, type LivenessRunner } from './liveness-model.js';

/** Every model the face engine runs, loaded once and shared by all requests. */
export interface FaceModels {
  detector: DetectorRunner;
  landmarker: LandmarkRunner;
  embedder: EmbedRunner;
  liveness: LivenessRunner;
  eye: EyeRunner;
}

/** Load and warm up the five face models; any failure (missing file, digest, shape) rejects at once. */
export async function loadFaceModels(options: LoadModelOptions = {}): Promise<FaceModels> {
  // Sequential on purpose: a failure names the first broken model and 2 cores gain nothing from parallel loads.
  const detector = await loadDetector(options);
  const landmarker = await loadLandmarker(options);
  const embedder = await loadEmbedder(options);
  const liveness = await loadLivenessModel(options);
  const eye = await loadEyeModel(options);
  return { detector, landmarker, embedder, liveness, eye };
}

/** Release every session of `loadFaceModels`. */
export async function disposeFaceModels(models: FaceModels): Promise<void> {
  const { detector, landmarker, embedder, liveness, eye } = models;
  await Promise.all([
    detector.dispose(),
    landmarker.dispose(),
    embedder.dispose(),
    liveness.dispose(),
    eye.dispose(),
  ]);
}
