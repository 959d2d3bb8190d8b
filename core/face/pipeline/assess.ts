import type { FaceEngineConfig } from '../config.js';
import { area } from '../geometry/face-geometry.js';
import type { FaceModels } from '../models/load-all.js';
import type { DetectedFace, FaceBox, Raster } from '../types.js';
import { alignFace, type AlignedFace } from './align.js';
import { detectFaces } from './detect-faces.js';
import { eyesClosedProbability, measureFace, type QualityCheck, type QualityReason } from './quality.js';

/** Outcome of the quality checks of one image. */
export interface QualityReport {
  passed: boolean;
  /** Reasons of the failed checks, most blocking first. */
  reasons: QualityReason[];
  checks: QualityCheck[];
  /** The face the checks were made on, in image pixels. */
  face: FaceBox | null;
  faceCount: number;
}

/** A face picked from an image, aligned, with its quality report. */
export interface FaceAnalysis {
  report: QualityReport;
  /** Every face found (under the turn that showed them upright), best first. */
  faces: DetectedFace[];
  face?: DetectedFace;
  aligned?: AlignedFace;
}

/** 'selfie': upright, one face, eyes open. 'card': any quarter turn, the largest portrait, size check only. */
export type ImageKind = 'selfie' | 'card';

/** The main face: the largest box (the card's ghost portrait is smaller), ties broken by confidence. */
export function mainFace(faces: readonly DetectedFace[]): DetectedFace | undefined {
  let best: DetectedFace | undefined;
  for (const f of faces) {
    if (!best || area(f.box) * f.score > area(best.box) * best.score) best = f;
  }
  return best;
}

function report(checks: QualityCheck[], face: FaceBox | null, faceCount: number): QualityReport {
  const failed = checks.filter((c) => !c.passed);
  return {
    passed: failed.length === 0,
    reasons: failed.flatMap((c) => (c.reason ? [c.reason] : [])),
    checks,
    face,
    faceCount,
  };
}

/** Detect, choose the main face, align it and run the quality checks for its kind of image. */
export async function analyseFace(
  models: FaceModels,
  config: FaceEngineConfig,
  image: Raster,
  kind: ImageKind,
): Promise<FaceAnalysis> {
  const rotations = kind === 'card' ? config.cardRotations : config.detect.rotations;
  const faces = await detectFaces(models, image, { ...config.detect, rotations });
  const face = mainFace(faces);
  const aligned = face ? await alignFace(image, face) : undefined;
  if (!face || !aligned) {
    return {
      report: report([{ name: 'face_detected', passed: false, value: 0, reason: 'no_face' }], null, 0),
      faces,
    };
  }
  const q = config.quality;
  const checks: QualityCheck[] = [{ name: 'face_detected', passed: true, value: faces.length }];
  if (kind === 'selfie') {
    const others = faces.filter((f) => f !== face && f.box.width >= q.secondFaceWidthShare * face.box.width);
    checks.push({
      name: 'single_face',
      passed: others.length === 0,
      value: others.length + 1,
      reason: 'multiple_faces',
    });
    checks.push(...measureFace(face, aligned, q, q.minInterEyeSelfie));
    const closed = await eyesClosedProbability(models.eye, face, aligned);
    checks.push({
      name: 'eyes_open',
      passed: closed < q.eyeClosedProbability,
      value: Math.round(closed * 1000) / 1000,
      reason: 'eyes_closed',
    });
  } else {
    checks.push(...measureFace(face, aligned, q, q.minInterEyeCard).filter((c) => c.name === 'face_size'));
  }
  return { report: report(checks, face.box, faces.length), faces, face, aligned };
}

/** The quality report alone (the console's live feedback). */
export async function assessQuality(
  models: FaceModels,
  config: FaceEngineConfig,
  image: Raster,
  kind: ImageKind,
): Promise<QualityReport> {
  return (await analyseFace(models, config, image, kind)).report;
}
