import type { Raster } from '../types.js';

/**
 * Variance of the 4-neighbour Laplacian of a grey raster: low on blurred faces (few edges), high on sharp ones.
 * Border pixels are skipped.
 */
export function laplacianVariance(gray: Raster): number {
  const { width, height, data } = gray;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const v = data[i - 1]! + data[i + 1]! + data[i - width]! + data[i + width]! - 4 * data[i]!;
      sum += v;
      sumSq += v * v;
      n++;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

/** Exposure of a grey raster: mean level and the shares of nearly black and nearly white pixels. */
export interface Exposure {
  mean: number;
  darkShare: number;
  brightShare: number;
}

/** Mean grey level and clipped shares (below 16, above 240) of a grey raster. */
export function exposure(gray: Raster): Exposure {
  const n = gray.width * gray.height;
  let sum = 0;
  let dark = 0;
  let bright = 0;
  for (let i = 0; i < n; i++) {
    const v = gray.data[i]!;
    sum += v;
    if (v < 16) dark++;
    else if (v > 240) bright++;
  }
  return n === 0
    ? { mean: 0, darkShare: 0, brightShare: 0 }
    : { mean: sum / n, darkShare: dark / n, brightShare: bright / n };
}
