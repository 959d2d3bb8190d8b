import { roundHalfUp } from '../../math/round.js';
import type { Affine } from '../geometry/similarity-transform.js';
import type { Raster } from '../types.js';

/**
 * Resample `src` into a `width x height` raster: each output pixel centre (x, y) reads `src` at
 * `dstToSrc(x, y)` with bilinear interpolation; samples outside the source read `fill`. Output sizes are small
 * (24 to 128 px), so this loop stays well under a millisecond and off the hot path of the event loop.
 */
export function warpAffine(src: Raster, dstToSrc: Affine, width: number, height: number, fill = 0): Raster {
  const ch = src.channels;
  const out = new Uint8Array(width * height * ch);
  const [a, b, c, d, e, f] = dstToSrc;
  const sw = src.width;
  const sh = src.height;
  const data = src.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Pixel centres: sample the source at the centre of the output pixel, in pixel-centre coordinates.
      const px = x + 0.5;
      const py = y + 0.5;
      const sx = a * px + b * py + c - 0.5;
      const sy = d * px + e * py + f - 0.5;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const o = (y * width + x) * ch;
      for (let k = 0; k < ch; k++) {
        const p00 = x0 >= 0 && y0 >= 0 && x0 < sw && y0 < sh ? data[(y0 * sw + x0) * ch + k]! : fill;
        const p10 =
          x0 + 1 >= 0 && y0 >= 0 && x0 + 1 < sw && y0 < sh ? data[(y0 * sw + x0 + 1) * ch + k]! : fill;
        const p01 =
          x0 >= 0 && y0 + 1 >= 0 && x0 < sw && y0 + 1 < sh ? data[((y0 + 1) * sw + x0) * ch + k]! : fill;
        const p11 =
          x0 + 1 >= 0 && y0 + 1 >= 0 && x0 + 1 < sw && y0 + 1 < sh
            ? data[((y0 + 1) * sw + x0 + 1) * ch + k]!
            : fill;
        const top = p00 + (p10 - p00) * fx;
        const bottom = p01 + (p11 - p01) * fx;
        out[o + k] = roundHalfUp(top + (bottom - top) * fy);
      }
    }
  }
  return { data: out, width, height, channels: ch };
}

/** The dst-to-src matrix that resamples the source rectangle (x, y, w, h) onto a `width x height` output. */
export function rectToOutput(
  x: number,
  y: number,
  w: number,
  h: number,
  width: number,
  height: number,
): Affine {
  return [w / width, 0, x, 0, h / height, y];
}

/** Mirror a raster left to right (for flip-averaged embeddings). */
export function flipHorizontal(src: Raster): Raster {
  const { width, height, channels } = src;
  const out = new Uint8Array(src.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * channels;
      const to = (y * width + (width - 1 - x)) * channels;
      for (let k = 0; k < channels; k++) out[to + k] = src.data[from + k]!;
    }
  }
  return { data: out, width, height, channels };
}

/** Luma (BT.601) of an RGB raster as a one-channel raster. */
export function toGray(src: Raster): Raster {
  if (src.channels === 1) return src;
  const n = src.width * src.height;
  const out = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += src.channels) {
    out[i] = roundHalfUp(0.299 * src.data[j]! + 0.587 * src.data[j + 1]! + 0.114 * src.data[j + 2]!);
  }
  return { data: out, width: src.width, height: src.height, channels: 1 };
}
