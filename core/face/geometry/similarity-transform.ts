import type { Point } from '../types.js';

/** A 2x3 affine matrix `[a, b, c, d, e, f]` mapping (x, y) to (a x + b y + c, d x + e y + f). */
export type Affine = [number, number, number, number, number, number];

/** ArcFace's five reference points in the 112x112 aligned crop (eyes, nose tip, mouth corners). */
export const ARCFACE_REFERENCE: readonly Point[] = [
  [38.2946, 51.6963],
  [73.5318, 51.5014],
  [56.0252, 71.7366],
  [41.5493, 92.3655],
  [70.7299, 92.2041],
];

/**
 * Least-squares similarity transform (rotation, uniform scale, translation; Umeyama 1991 without reflection) taking
 * `src` points onto `dst`. Unlike a 3-point affine it cannot shear a turned face, which is what costs accuracy.
 */
export function estimateSimilarity(src: readonly Point[], dst: readonly Point[]): Affine {
  const n = Math.min(src.length, dst.length);
  if (n < 2) throw new Error('A similarity transform needs at least two point pairs.');
  let sx = 0;
  let sy = 0;
  let dx = 0;
  let dy = 0;
  for (let i = 0; i < n; i++) {
    sx += src[i]![0];
    sy += src[i]![1];
    dx += dst[i]![0];
    dy += dst[i]![1];
  }
  sx /= n;
  sy /= n;
  dx /= n;
  dy /= n;
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const x = src[i]![0] - sx;
    const y = src[i]![1] - sy;
    const u = dst[i]![0] - dx;
    const v = dst[i]![1] - dy;
    dot += x * u + y * v;
    cross += x * v - y * u;
    norm += x * x + y * y;
  }
  if (norm === 0) throw new Error('The source points coincide.');
  const a = dot / norm;
  const b = cross / norm;
  return [a, -b, dx - (a * sx - b * sy), b, a, dy - (b * sx + a * sy)];
}

/** Apply an affine matrix to a point. */
export function applyAffine(m: Affine, p: Point): Point {
  return [m[0] * p[0] + m[1] * p[1] + m[2], m[3] * p[0] + m[4] * p[1] + m[5]];
}

/** Inverse of an invertible affine matrix. */
export function invertAffine(m: Affine): Affine {
  const det = m[0] * m[4] - m[1] * m[3];
  if (det === 0) throw new Error('The affine matrix is singular.');
  const a = m[4] / det;
  const b = -m[1] / det;
  const d = -m[3] / det;
  const e = m[0] / det;
  return [a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5])];
}
