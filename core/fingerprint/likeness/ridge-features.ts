import { BLOCK } from '../extract/block-grid.js';
import type { Periodicity } from '../extract/frequency.js';
import { blockAngle, type OrientationField } from '../extract/orientation.js';
import type { FloatImage } from '../extract/resample.js';
import type { ForegroundMask } from '../extract/segmentation.js';

const HALF_WINDOW = 16;
/**
 * Lines the along-ridge profile averages: three a pixel apart, on one ridge or valley. A row of dots, staggered or
 * not from the next, repeats on them; a ridge does not.
 */
const ALONG_LINES = [-1, 0, 1];
const MIN_LAG = 5;
const MAX_LAG = 15;
/** A block repeats at a ridge period when its across-ridge autocorrelation reaches this (and along it does not). */
const RIDGE_STRENGTH = 0.35;
/** ...and its direction agrees with its neighbours' this well. */
const RIDGE_CONSISTENCY = 0.5;

/** What the check measures, each in [0, 1]. */
export interface RidgeFeatures {
  /** Foreground blocks, and their share of the image. */
  foregroundBlocks: number;
  foregroundShare: number;
  /**
   * Mean over the foreground of how much more the grey levels repeat across the block's direction than along it, at
   * a period of 5-15 px: parallel ridges repeat across only; lattices, fabric and dots repeat both ways; faces, text
   * and noise neither.
   */
  ridgeAnisotropy: number;
  /**
   * The foreground's share of the image's structure (the blocks' root-mean-square gradients summed): a fingerprint
   * scan is one print on a plain background; photos and documents have structure everywhere.
   */
  structureShare: number;
  /**
   * The largest connected region of ridge blocks over the foreground: blocks that repeat across their direction and
   * not along it, and agree in direction with their neighbours.
   */
  ridgeRegionShare: number;
}

/**
 * Autocovariance peak (lags 5-15, unbiased, as the period estimate) of the grey levels sampled along the block's
 * direction on lines at the given offsets across it, averaged, over the larger of its own mean square and the
 * across-ridge profile's (`across`): a faint ripple along a ridge is no repetition. 0 without a peak.
 */
function alongStrength(
  image: FloatImage,
  cx: number,
  cy: number,
  t: number,
  across: number,
  offsets: readonly number[],
  signature: Float32Array,
): number {
  const { width, height, data } = image;
  const rx = Math.cos(t);
  const ry = Math.sin(t);
  let mean = 0;
  for (let k = -HALF_WINDOW; k < HALF_WINDOW; k++) {
    let s = 0;
    let n = 0;
    for (const j of offsets) {
      const x = Math.round(cx + k * rx - j * ry);
      const y = Math.round(cy + k * ry + j * rx);
      if (x < 0 || y < 0 || x >= width || y >= height) continue;
      s += data[y * width + x]!;
      n++;
    }
    const v = n > 0 ? s / n : 0;
    signature[k + HALF_WINDOW] = v;
    mean += v;
  }
  mean /= signature.length;
  let energy = 0;
  for (let k = 0; k < signature.length; k++) {
    signature[k]! -= mean;
    energy += signature[k]! * signature[k]!;
  }
  if (energy < 1e-3) return 0;
  const scale = Math.max(energy, across * signature.length);
  let best = 0;
  let previous = 0;
  let current = 0;
  for (let lag = MIN_LAG - 1; lag <= MAX_LAG + 1; lag++) {
    let c = 0;
    for (let k = 0; k + lag < signature.length; k++) c += signature[k]! * signature[k + lag]!;
    const next = (c / scale) * (signature.length / (signature.length - lag));
    // `current` (at lag - 1) is a peak when it is no lower than both its neighbours.
    if (lag - 1 >= MIN_LAG && current > best && current >= previous && current >= next) best = current;
    previous = current;
    current = next;
  }
  return best;
}

/** Size of the largest 8-connected region of marked blocks. */
function largestRegion(marked: Uint8Array, cols: number, rows: number): number {
  const seen = new Uint8Array(marked.length);
  const stack: number[] = [];
  let largest = 0;
  for (let start = 0; start < marked.length; start++) {
    if (!marked[start] || seen[start]) continue;
    let size = 0;
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      size++;
      const x = i % cols;
      const y = (i / cols) | 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= cols || yy >= rows) continue;
          const j = yy * cols + xx;
          if (marked[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
    }
    largest = Math.max(largest, size);
  }
  return largest;
}

/**
 * The ridge features of an image at 500 dpi from the extractor's own maps: its orientation field, foreground and
 * each block's across-ridge periodicity (estimatePeriod's).
 */
export function ridgeFeatures(
  image: FloatImage,
  field: OrientationField,
  seg: ForegroundMask,
  periodicity: Periodicity,
): RidgeFeatures {
  const { strength, energy } = periodicity;
  const { cols, rows } = field;
  const signature = new Float32Array(2 * HALF_WINDOW);
  const ridge = new Uint8Array(cols * rows);
  let foreground = 0;
  let anisotropy = 0;
  let structure = 0;
  let structureInside = 0;
  for (let b = 0; b < cols * rows; b++) {
    const gradient = Math.sqrt(field.energy[b]!);
    structure += gradient;
    if (!seg.mask[b]) continue;
    structureInside += gradient;
    foreground++;
    const across = strength[b]!;
    if (across <= 0) continue;
    const t = blockAngle(field, b);
    const cx = (b % cols) * BLOCK + BLOCK / 2;
    const cy = ((b / cols) | 0) * BLOCK + BLOCK / 2;
    const along = alongStrength(image, cx, cy, t, energy[b]!, ALONG_LINES, signature);
    anisotropy += Math.max(0, across - along);
    if (across >= RIDGE_STRENGTH && along < RIDGE_STRENGTH && field.consistency[b]! >= RIDGE_CONSISTENCY)
      ridge[b] = 1;
  }
  const per = Math.max(1, foreground);
  return {
    foregroundBlocks: foreground,
    foregroundShare: foreground / (cols * rows),
    ridgeAnisotropy: anisotropy / per,
    structureShare: structure > 0 ? structureInside / structure : 0,
    ridgeRegionShare: largestRegion(ridge, cols, rows) / per,
  };
}
