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
  const { width, height, channels } = src;
  const plane = width * height;
  const out = new Float32Array(plane * channels);
  const inv = 1 / layout.std;
  for (let c = 0; c < channels; c++) {
    const from = layout.order === 'bgr' && channels === 3 ? 2 - c : c;
    const base = c * plane;
    for (let i = 0; i < plane; i++) out[base + i] = (src.data[i * channels + from]! - layout.mean) * inv;
  }
  return out;
}
