import type { DetectOptions } from './pipeline/detect-faces.js';
import type { AdmissionLimits } from '../workers/admission.js';
import { DEFAULT_MAX_WAIT_MS } from '../workers/sizing.js';
import type { Rotation } from './geometry/rotation.js';

/** Quality floors of a face (selfie or card portrait); each failed one is a reason the console shows. */
export interface QualityThresholds {
  /** Minimum distance between the eye centres, in image pixels, for a selfie. */
  minInterEyeSelfie: number;
  /** Minimum inter-eye distance of the ID-card portrait (cards are small: a lower floor). */
  minInterEyeCard: number;
  /** Minimum variance of the Laplacian of the aligned 112x112 grey face. */
  minSharpness: number;
  /** Mean grey level of the aligned face below which it is too dark. */
  minBrightness: number;
  /** Mean grey level above which it is overexposed. */
  maxBrightness: number;
  /** Share of clipped-white pixels above which it is overexposed. */
  maxBrightShare: number;
  /** Probability of "closed" above which an eye counts as closed (both closed fails the check). */
  eyeClosedProbability: number;
  /** A second face at least this share of the main face's width makes a selfie ambiguous. */
  secondFaceWidthShare: number;
}

/** Every tunable of the face engine, with measured defaults in `DEFAULT_FACE_CONFIG`. */
export interface FaceEngineConfig {
  /** Detection of selfies (upright only). */
  detect: DetectOptions;
  /** Rotations tried on ID-card images, in order, until a face looks upright. */
  cardRotations: readonly Rotation[];
  /** Sum the embeddings of the aligned face and its mirror image before normalising. */
  flipAverage: boolean;
  /** Liveness crop: the face box side times this (the package's 2.7). */
  livenessCropScale: number;
  /** Border padding (share of the side) added around tight face crops before the liveness model (measured on NUAA). */
  livenessTightPad: number;
  /** Index of the bona fide class among fr_liveness's three outputs (0: measured AUC 0.91 vs 0.08 for class 1). */
  livenessLiveClass: number;
  quality: QualityThresholds;
  /** Admission of face requests (each a series of model calls); as many run at once as there are face workers. */
  queue: AdmissionLimits;
  /** Bounds a request's own `threshold` must lie within (similarity units). */
  thresholdBounds: { min: number; max: number };
}

/** Defaults: each figure was chosen by measurement (see docs/decisions.md and core/face/eval). */
export const DEFAULT_FACE_CONFIG: FaceEngineConfig = {
  detect: { minScore: 0.65, iouThreshold: 0.4, maxFaces: 8, rotations: [0] },
  cardRotations: [0, 90, 270, 180],
  flipAverage: true,
  livenessCropScale: 2.7,
  livenessTightPad: 0.3,
  livenessLiveClass: 0,
  quality: {
    minInterEyeSelfie: 30,
    minInterEyeCard: 12,
    minSharpness: 15,
    minBrightness: 45,
    maxBrightness: 215,
    maxBrightShare: 0.35,
    eyeClosedProbability: 0.9,
    secondFaceWidthShare: 0.5,
  },
  queue: { maxQueue: 16, maxWaitMs: DEFAULT_MAX_WAIT_MS },
  thresholdBounds: { min: 0.1, max: 0.95 },
};
