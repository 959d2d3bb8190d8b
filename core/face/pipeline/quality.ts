import type { QualityThresholds } from '../config.js';
import { interEyeDistance } from '../geometry/landmarks.js';
import { EYE_SIZE, type EyeRunner } from '../models/eye-model.js';
import { exposure, laplacianVariance } from '../pixels/metrics.js';
import { rectToOutput, toGray, warpAffine } from '../pixels/warp-affine.js';
import type { DetectedFace, Point } from '../types.js';
import { alignedPoints, type AlignedFace } from './align.js';

/** Machine-readable quality failures, shown by the console as live feedback. */
export type QualityReason =
  | 'no_face'
  | 'multiple_faces'
  | 'face_too_small'
  | 'too_blurred'
  | 'too_dark'
  | 'overexposed'
  | 'eyes_closed';

/** One measured check. */
export interface QualityCheck {
  name: 'face_detected' | 'single_face' | 'face_size' | 'sharpness' | 'brightness' | 'eyes_open';
  passed: boolean;
  /** The measured value (inter-eye px, Laplacian variance, mean grey, closed probability, face count). */
  value: number;
  /** The reason given when the check fails. */
  reason?: QualityReason;
}

/** Measurements of one aligned face that do not need a model. */
export function measureFace(
  face: DetectedFace,
  aligned: AlignedFace,
  thresholds: QualityThresholds,
  minInterEye: number,
): QualityCheck[] {
  const gray = toGray(aligned.raster);
  const eyes = interEyeDistance(face.landmarks5);
  const sharp = laplacianVariance(gray);
  const exp = exposure(gray);
  const dark = exp.mean < thresholds.minBrightness;
  const bright = exp.mean > thresholds.maxBrightness || exp.brightShare > thresholds.maxBrightShare;
  const checks: QualityCheck[] = [
    { name: 'face_size', passed: eyes >= minInterEye, value: round(eyes), reason: 'face_too_small' },
    {
      name: 'sharpness',
      passed: sharp >= thresholds.minSharpness,
      value: round(sharp),
      reason: 'too_blurred',
    },
    {
      name: 'brightness',
      passed: !dark && !bright,
      value: round(exp.mean),
      reason: dark ? 'too_dark' : 'overexposed',
    },
  ];
  return checks;
}

/** Square grey crop around one eye of the aligned face, 1.6x the eye's corner-to-corner width (as the package). */
function eyeCrop(aligned: AlignedFace, corners: [Point, Point]) {
  const [a, b] = alignedPoints(aligned, corners);
  const side = Math.max(6, 1.6 * Math.hypot(b![0] - a![0], b![1] - a![1]));
  const cx = (a![0] + b![0]) / 2;
  const cy = (a![1] + b![1]) / 2;
  const m = rectToOutput(cx - side / 2, cy - side / 2, side, side, EYE_SIZE, EYE_SIZE);
  return warpAffine(toGray(aligned.raster), m, EYE_SIZE, EYE_SIZE);
}

/** Probability that both eyes are closed (the smaller of the two eyes' closed probabilities). */
export async function eyesClosedProbability(
  eye: EyeRunner,
  face: DetectedFace,
  aligned: AlignedFace,
): Promise<number> {
  const p = face.landmarks68;
  const left = await eye.run(eyeCrop(aligned, [p[36]!, p[39]!]));
  const right = await eye.run(eyeCrop(aligned, [p[42]!, p[45]!]));
  // fr_eye's class 0 is "closed": measured on open-eyed photos (sample*.jpg, bbt/), which score p1 near 1.
  return Math.min(left[0] ?? 0, right[0] ?? 0);
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
