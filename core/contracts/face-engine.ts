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
  rotation: QuarterTurn;
}

/** A clockwise quarter turn under which a face looks upright. */
export type QuarterTurn = 0 | 90 | 180 | 270;

/** Options of `FaceEngine.detect`. */
export interface FaceDetectOptions {
  /** Search the image under this clockwise quarter turn only (default 0: upright). */
  rotation?: QuarterTurn;
}

/**
 * The faces of an ID-card image as the face_match step found them (quarter turns tried), kept so that the id_card
 * step of the same request reuses them instead of detecting again.
 */
export interface CardFaces {
  /** The card image they were found in: the request's decoded pixels, never a copy. */
  readonly image: DecodedImage;
  /** Faces under the turn that showed them upright, best first, in the card's pixels. */
  readonly faces: readonly DetectedFace[];
  /** The card's main portrait (the face the face_match step compares), or null when none was found. */
  readonly portrait: DetectedFace | null;
}

/** The face_match step's result and the card analysis it was made from. */
export interface CardMatch {
  result: StepResult;
  card: CardFaces;
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
  /** `match`, also answering the card's faces so a later step of the request need not detect them again. */
  matchCard(selfie: DecodedImage, idCard: DecodedImage, options?: { threshold?: number }): Promise<CardMatch>;
  /** The faces of an ID-card image (every quarter turn tried) and its main portrait. */
  analyseCard(image: DecodedImage): Promise<CardFaces>;
  /** Quality checks of a selfie for live capture feedback. */
  quality(image: DecodedImage): Promise<FaceQualityReport>;
  /** Faces of an image, best first, upright or under the given turn (the ghost-portrait search uses it). */
  detect(image: DecodedImage, options?: FaceDetectOptions): Promise<DetectedFace[]>;
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
