/**
 * ORB features (Rublee et al. 2011): FAST-9 corners on a scale pyramid, Harris ranking with a spatial grid so
 * text-heavy areas do not take every slot, intensity-centroid orientation and steered BRIEF. Pure code.
 */
import { DESCRIPTOR_WORDS, PATCH_RADIUS, describe, integralImage, patchOrientation } from './brief.js';
import { detectFast } from './fast.js';
import { resizeBilinear, stretchContrast, type GrayImage } from './gray-image.js';

/** Keypoints in level-0 pixel coordinates with their descriptors (`DESCRIPTOR_WORDS` words each). */
export interface OrbFeatures {
  count: number;
  /** x0, y0, x1, y1, ... in the input image's pixels. */
  points: Float32Array;
  /** Pyramid scale of each keypoint (1 = full resolution). */
  scales: Float32Array;
  descriptors: Uint32Array;
}

/** Tuning of the extractor. */
export interface OrbOptions {
  /** Keypoints to keep over all levels. */
  maxFeatures: number;
  /** Pyramid levels and the scale between two levels. */
  levels: number;
  scaleFactor: number;
  /** FAST intensity threshold (after contrast stretch). */
  fastThreshold: number;
  /** Grid cell size in pixels used to spread keypoints over the image. */
  cellSize: number;
}

/** Defaults used for cards and reference marks alike. */
export const DEFAULT_ORB: OrbOptions = {
  maxFeatures: 1500,
  levels: 6,
  scaleFactor: 1.25,
  fastThreshold: 18,
  cellSize: 48,
};

const BORDER = Math.ceil(PATCH_RADIUS * Math.SQRT2) + 4;

interface Candidate {
  x: number;
  y: number;
  response: number;
}

function spread(
  corners: Candidate[],
  width: number,
  height: number,
  wanted: number,
  cellSize: number,
): Candidate[] {
  if (corners.length <= wanted) return corners;
  const columns = Math.max(1, Math.ceil(width / cellSize));
  const cells = new Map<number, Candidate[]>();
  for (const corner of corners) {
    const cell = Math.floor(corner.y / cellSize) * columns + Math.floor(corner.x / cellSize);
    const list = cells.get(cell);
    if (list) list.push(corner);
    else cells.set(cell, [corner]);
  }
  const lists = [...cells.values()].map((list) => list.sort((a, b) => b.response - a.response));
  // Round robin over cells, strongest first within each: a low-contrast print (a seal, a ghost image) keeps
  // its share of keypoints next to black text.
  const kept: Candidate[] = [];
  for (let round = 0; kept.length < wanted; round++) {
    const layer: Candidate[] = [];
    for (const list of lists) if (round < list.length) layer.push(list[round]!);
    if (layer.length === 0) break;
    layer.sort((a, b) => b.response - a.response);
    for (const corner of layer) {
      if (kept.length >= wanted) break;
      kept.push(corner);
    }
  }
  return kept;
}

/** Detect and describe ORB keypoints of a grey image. */
export function extractOrb(input: GrayImage, options: OrbOptions = DEFAULT_ORB): OrbFeatures {
  const base = stretchContrast(input);
  const factor = 1 / options.scaleFactor;
  const perLevel: number[] = [];
  let quota = (options.maxFeatures * (1 - factor * factor)) / (1 - Math.pow(factor * factor, options.levels));
  for (let level = 0; level < options.levels; level++) {
    perLevel.push(Math.round(quota));
    quota *= factor * factor;
  }
  const points: number[] = [];
  const scales: number[] = [];
  const descriptors: number[] = [];
  const words = new Uint32Array(DESCRIPTOR_WORDS);
  let image = base;
  for (let level = 0; level < options.levels; level++) {
    const scale = Math.pow(options.scaleFactor, level);
    if (level > 0) {
      const width = Math.round(base.width / scale);
      const height = Math.round(base.height / scale);
      if (width < BORDER * 2 + 8 || height < BORDER * 2 + 8) break;
      image = resizeBilinear(base, width, height);
    }
    const corners = spread(
      detectFast(image, options.fastThreshold, BORDER),
      image.width,
      image.height,
      perLevel[level]!,
      options.cellSize,
    );
    if (corners.length === 0) continue;
    const ii = integralImage(image);
    for (const corner of corners) {
      const angle = patchOrientation(image, corner.x, corner.y);
      describe(ii, corner.x, corner.y, angle, words, 0);
      // Pixel centres: level pixel x covers level-0 [x * s, (x + 1) * s).
      points.push((corner.x + 0.5) * scale - 0.5, (corner.y + 0.5) * scale - 0.5);
      scales.push(scale);
      for (const w of words) descriptors.push(w);
    }
  }
  return {
    count: scales.length,
    points: Float32Array.from(points),
    scales: Float32Array.from(scales),
    descriptors: Uint32Array.from(descriptors),
  };
}
