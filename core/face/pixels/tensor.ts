import type { Raster } from '../types.js';

/** How a model wants its pixels: channel order and `(value - mean) / std`. */
export interface TensorLayout {
  /** 'bgr' reverses the RGB channels (models trained through OpenCV's imread). */
  order: 'rgb' | 'bgr';
  mean: number;
  std: number;
}

/** Planar (CHW) float tensor data from an interleaved raster, normalised per `layout`. */
export function toChw(src: Raster, layout: TensorLayout): Float32Array {
  const { width, height, channels, data } = src;
  const plane = width * height;
  const out = new Float32Array(plane * channels);
  const inv = 1 / layout.std;
  const mean = layout.mean;
  if (channels === 3) {
    // One pass over the pixels (each detector input is 230k values, several a request); BGR swaps two planes.
    const first = layout.order === 'bgr' ? 2 * plane : 0;
    const last = 2 * plane - first;
    for (let i = 0, j = 0; i < plane; i++, j += 3) {
      out[first + i] = (data[j]! - mean) * inv;
      out[plane + i] = (data[j + 1]! - mean) * inv;
      out[last + i] = (data[j + 2]! - mean) * inv;
    }
    return out;
  }
  for (let c = 0; c < channels; c++) {
    const base = c * plane;
    for (let i = 0; i < plane; i++) out[base + i] = (data[i * channels + c]! - mean) * inv;
  }
  return out;
}
