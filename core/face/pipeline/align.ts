import { squareAround } from '../geometry/face-geometry.js';
import {
  ARCFACE_REFERENCE,
  applyAffine,
  estimateSimilarity,
  invertAffine,
  type Affine,
} from '../geometry/similarity-transform.js';
import { EMBED_SIZE } from '../models/embedder.js';
import { warpAffine } from '../pixels/warp-affine.js';
import type { DetectedFace, Point, Raster } from '../types.js';
import { cutChip } from './sharp-ops.js';

/** A face warped onto the ArcFace 112x112 template, with the transform that put it there. */
export interface AlignedFace {
  raster: Raster;
  /** Maps image pixels to aligned-crop pixels. */
  imageToAligned: Affine;
}

/** Longest side of the chip the aligned crop is resampled from (about 1.2x the 112 crop: no aliasing). */
const CHIP_SIDE = 240;

/**
 * Warp a detected face onto ArcFace's reference points with a least-squares five-point similarity transform.
 * `marginScale` scales the template about its centre (1 = the standard ArcFace crop).
 */
export async function alignFace(
  image: Raster,
  face: DetectedFace,
  marginScale = 1,
): Promise<AlignedFace | undefined> {
  const side = Math.max(face.box.width, face.box.height);
  const chip = await cutChip(image, squareAround(face.box, 1.9 * marginScale, side), CHIP_SIDE);
  if (!chip) return undefined;
  const k = chip.scale;
  const inChip = face.landmarks5.map((p): Point => [(p[0] - chip.offsetX) * k, (p[1] - chip.offsetY) * k]);
  const c = EMBED_SIZE / 2;
  const reference = ARCFACE_REFERENCE.map((p): Point => [
    c + (p[0] - c) / marginScale,
    c + (p[1] - c) / marginScale,
  ]);
  const chipToAligned = estimateSimilarity(inChip, reference);
  const raster = warpAffine(chip.raster, invertAffine(chipToAligned), EMBED_SIZE, EMBED_SIZE);
  const imageToAligned: Affine = [
    chipToAligned[0] * k,
    chipToAligned[1] * k,
    chipToAligned[2] - (chipToAligned[0] * chip.offsetX + chipToAligned[1] * chip.offsetY) * k,
    chipToAligned[3] * k,
    chipToAligned[4] * k,
    chipToAligned[5] - (chipToAligned[3] * chip.offsetX + chipToAligned[4] * chip.offsetY) * k,
  ];
  return { raster, imageToAligned };
}

/** Landmarks of a face in the aligned crop's pixels. */
export function alignedPoints(aligned: AlignedFace, points: readonly Point[]): Point[] {
  return points.map((p) => applyAffine(aligned.imageToAligned, p));
}
