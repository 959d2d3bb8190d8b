import type { DecodedImage } from '../imaging/decode.js';
import type { Calibration, EngineHealth, StepResult } from './step-result.js';

/** An axis-aligned rectangle in image pixels (top-left corner, size). */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A point `[x, y]` in image pixels. */
export type Point = [number, number];

/** One detected face: box, detector confidence and landmarks, all in the pixels of the image given to `detect`. */
export interface DetectedFace {
  box: FaceBox;
  /** Detector confidence in [0, 1]. */
  score: number;
  /** Left eye, right eye, nose tip, left mouth corner, right mouth corner (image left/right), from the 68-point model. */
  landmarks5: Point[];
  /** The 68 points of the landmark model (iBUG order). */
  landmarks68: Point[];
  /** Clockwise rotation (degrees) of the image under which the face was found upright. */
  rotation: 0 | 90 | 180 | 270;
}

/** Outcome of the quality checks of a selfie (live capture feedback). */
export interface FaceQualityReport {
  passed: boolean;
  /** Reasons of the failed checks, most blocking first (no_face, too_blurred, ...). */
  reasons: string[];
  checks: { name: string; passed: boolean; value: number; reason?: string }[];
  /** The face the checks were made on, in image pixels. */
  face: FaceBox | null;
  faceCount: number;
}

/** The face engine: selfie vs ID-card portrait, quality checks, and the detector and embedder other engines reuse. */
export interface FaceEngine {
  /** Names of the models it runs (models/manifest.json), for the versions recorded in events. */
  readonly modelNames: readonly string[];
  /** Selfie vs ID-card portrait (the face_match step of /v2/verify and /v2/match-faces). */
  match(selfie: DecodedImage, idCard: DecodedImage, options?: { threshold?: number }): Promise<StepResult>;
  /** Quality checks of a selfie for live capture feedback. */
  quality(image: DecodedImage): Promise<FaceQualityReport>;
  /** Faces of an image, best first (the ghost-portrait detector of the document engine uses it). */
  detect(image: DecodedImage): Promise<DetectedFace[]>;
  /** L2-normalised embedding of one detected face of `image`. */
  embed(image: DecodedImage, face: DetectedFace): Promise<Float32Array>;
  /** Cosine similarity of two embeddings, in [-1, 1]. */
  similarity(a: Float32Array, b: Float32Array): number;
  /** Operating points offered to the console's threshold picker. */
  calibration(): Calibration;
  health(): Promise<EngineHealth>;
}

/** Passive liveness from one image. */
export interface LivenessEngine {
  /** Names of the models it runs (models/manifest.json). */
  readonly modelNames: readonly string[];
  /** Passive liveness of one face image; score in [0,1], 1 = bona fide. */
  liveness(image: DecodedImage): Promise<StepResult>;
  health(): Promise<EngineHealth>;
}
