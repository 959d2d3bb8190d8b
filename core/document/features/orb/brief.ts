/**
 * Oriented BRIEF (the "rBRIEF" half of ORB): keypoint orientation from the intensity centroid of a circular
 * patch, and a 256-bit descriptor of comparisons between 5x5 box means (from an integral image, cheaper than
 * blurring every pyramid level) at a pair pattern rotated by that orientation. Pure code.
 */
import type { GrayImage } from './gray-image.js';
import { createPrng } from '../../../math/prng.js';

/** Radius of the patch orientation and descriptor sample from (31x31 patch as in ORB). */
export const PATCH_RADIUS = 15;
/** Descriptor length in 32-bit words (256 bits). */
export const DESCRIPTOR_WORDS = 8;

function buildPattern(): Float32Array {
  // Fixed seed: descriptors stored for registered marks must stay comparable across runs and releases.
  const random = createPrng(0x0b1e55ed).next;
  const gaussian = (): number => {
    const u = Math.max(1e-9, random());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const sigma = (PATCH_RADIUS * 2 + 1) / 5;
  const limit = PATCH_RADIUS - 2; // the 5x5 box around a sample stays inside the patch
  const pattern = new Float32Array(256 * 4);
  for (let i = 0; i < pattern.length; i++) {
    let v = gaussian() * sigma;
    while (Math.abs(v) > limit) v = gaussian() * sigma;
    pattern[i] = v;
  }
  return pattern;
}

const PATTERN = buildPattern();

// Half-widths of the circular patch per row, for the intensity centroid.
const UMAX: Int32Array = (() => {
  const out = new Int32Array(PATCH_RADIUS + 1);
  for (let v = 0; v <= PATCH_RADIUS; v++) out[v] = Math.floor(Math.sqrt(PATCH_RADIUS * PATCH_RADIUS - v * v));
  return out;
})();

/** Orientation (radians) of the patch around (x, y): angle of the intensity centroid (Rosin). */
export function patchOrientation(image: GrayImage, x: number, y: number): number {
  const { data, width } = image;
  let m01 = 0;
  let m10 = 0;
  for (let v = -PATCH_RADIUS; v <= PATCH_RADIUS; v++) {
    const half = UMAX[Math.abs(v)]!;
    const row = (y + v) * width + x;
    for (let u = -half; u <= half; u++) {
      const value = data[row + u]!;
      m10 += u * value;
      m01 += v * value;
    }
  }
  return Math.atan2(m01, m10);
}

/** Summed-area table of an image: (width + 1) x (height + 1) entries. */
export interface IntegralImage {
  sums: Float64Array;
  stride: number;
}

/** Summed-area table of a grey image. */
export function integralImage(image: GrayImage): IntegralImage {
  const stride = image.width + 1;
  const sums = new Float64Array(stride * (image.height + 1));
  for (let y = 0; y < image.height; y++) {
    let row = 0;
    for (let x = 0; x < image.width; x++) {
      row += image.data[y * image.width + x]!;
      sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1]! + row;
    }
  }
  return { sums, stride };
}

/** Orientation bins of the precomputed rotated patterns (12 degrees each, as in the ORB paper). */
const ANGLE_BINS = 30;

// Rounded sample offsets of the pattern rotated to each bin: [bin][pair][ax, ay, bx, by].
const ROTATED: Int8Array[] = Array.from({ length: ANGLE_BINS }, (_, bin) => {
  const angle = (bin * 2 * Math.PI) / ANGLE_BINS;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const out = new Int8Array(256 * 4);
  for (let i = 0; i < 256; i++) {
    const [ax, ay, bx, by] = [PATTERN[i * 4]!, PATTERN[i * 4 + 1]!, PATTERN[i * 4 + 2]!, PATTERN[i * 4 + 3]!];
    out[i * 4] = Math.round(ax * cos - ay * sin);
    out[i * 4 + 1] = Math.round(ax * sin + ay * cos);
    out[i * 4 + 2] = Math.round(bx * cos - by * sin);
    out[i * 4 + 3] = Math.round(bx * sin + by * cos);
  }
  return out;
});

/**
 * Write the 256-bit steered BRIEF descriptor of (x, y) into `out` at word offset `at`, the pattern rotated to
 * the nearest 12-degree bin of `angle`. The caller keeps (x, y) at least PATCH_RADIUS * sqrt(2) + 3 pixels from
 * the edges.
 */
export function describe(
  ii: IntegralImage,
  x: number,
  y: number,
  angle: number,
  out: Uint32Array,
  at: number,
): void {
  const turn = angle / (2 * Math.PI);
  const bin = ((Math.round(turn * ANGLE_BINS) % ANGLE_BINS) + ANGLE_BINS) % ANGLE_BINS;
  const pattern = ROTATED[bin]!;
  const { sums, stride } = ii;
  // Box corners relative to a sample at (sx, sy): rows sy - 2 and sy + 3, columns sx - 2 and sx + 3.
  const base = y * stride + x;
  const topLeft = -2 * stride - 2;
  const topRight = -2 * stride + 3;
  const bottomLeft = 3 * stride - 2;
  const bottomRight = 3 * stride + 3;
  for (let word = 0; word < DESCRIPTOR_WORDS; word++) {
    let bits = 0;
    for (let bit = 0; bit < 32; bit++) {
      const p = (word * 32 + bit) * 4;
      const ia = base + pattern[p + 1]! * stride + pattern[p]!;
      const ib = base + pattern[p + 3]! * stride + pattern[p + 2]!;
      const a = sums[ia + bottomRight]! - sums[ia + bottomLeft]! - sums[ia + topRight]! + sums[ia + topLeft]!;
      const b = sums[ib + bottomRight]! - sums[ib + bottomLeft]! - sums[ib + topRight]! + sums[ib + topLeft]!;
      if (a < b) bits |= 1 << bit;
    }
    out[at + word] = bits >>> 0;
  }
}
