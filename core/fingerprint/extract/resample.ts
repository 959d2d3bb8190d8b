import type { GrayImage } from '../types.js';

/** A working image of floats, one value per pixel, rows top to bottom. */
export interface FloatImage {
  width: number;
  height: number;
  data: Float32Array;
}

/** The resolution the extractor works at; every distance constant in extract/ and match/ assumes it. */
export const WORKING_DPI = 500;

/**
 * Convert a grey image to floats at 500 dpi (bilinear resampling when `dpi` differs), so that ridge periods and
 * every pixel distance downstream mean the same thing whatever the sensor resolution.
 */
export function toWorkingResolution(image: GrayImage, dpi: number): FloatImage {
  const scale = WORKING_DPI / dpi;
  const src = image.data;
  if (Math.abs(scale - 1) < 0.02) {
    const data = new Float32Array(image.width * image.height);
    for (let i = 0; i < data.length; i++) data[i] = src[i] ?? 0;
    return { width: image.width, height: image.height, data };
  }
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const data = new Float32Array(width * height);
  const maxX = image.width - 1;
  const maxY = image.height - 1;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(maxY, Math.max(0, (y + 0.5) / scale - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(maxY, y0 + 1);
    const fy = sy - y0;
    for (let x = 0; x < width; x++) {
      const sx = Math.min(maxX, Math.max(0, (x + 0.5) / scale - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(maxX, x0 + 1);
      const fx = sx - x0;
      const a = src[y0 * image.width + x0] ?? 0;
      const b = src[y0 * image.width + x1] ?? 0;
      const c = src[y1 * image.width + x0] ?? 0;
      const d = src[y1 * image.width + x1] ?? 0;
      data[y * width + x] = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
    }
  }
  return { width, height, data };
}
