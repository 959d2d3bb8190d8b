import { roundHalfUp } from '../../math/round.js';
import type { Raster } from './morphology.js';

/** A rotated rectangle in image pixels: centre, size along and across the line, angle in radians. */
export interface RotatedRect {
  cx: number;
  cy: number;
  width: number;
  height: number;
  angle: number;
  /** Source pixels per output pixel (default 1); under 1 the rectangle is sampled finer than the image. */
  step?: number;
  /** Per output column, source pixels the column is moved across the line (a bent line's curve followed). */
  shifts?: Float32Array | undefined;
}

/** A cut of an image; `outside` (1 per pixel, when any) marks pixels beyond the image, filled white. */
export interface Cut extends Raster {
  outside?: Uint8Array;
}

/**
 * Cut a rotated rectangle out of a grey raster into an upright one (bilinear), so a skewed MRZ line comes out
 * level. Pixels outside the image are white, like the paper around a line, and marked as such. `width` and
 * `height` are output pixels, `step` source pixels apart.
 */
export function sampleRotatedRect(src: Raster, rect: RotatedRect): Cut {
  const width = Math.max(1, Math.round(rect.width));
  const height = Math.max(1, Math.round(rect.height));
  const out = new Uint8Array(width * height);
  let outside: Uint8Array | undefined;
  const step = rect.step ?? 1;
  const cos = Math.cos(rect.angle) * step;
  const sin = Math.sin(rect.angle) * step;
  const shifts = rect.shifts;
  for (let y = 0; y < height; y++) {
    const dy = y - (height - 1) / 2;
    for (let x = 0; x < width; x++) {
      const dx = x - (width - 1) / 2;
      const across = shifts ? dy + (shifts[x] ?? 0) / step : dy;
      const sx = rect.cx + dx * cos - across * sin;
      const sy = rect.cy + dx * sin + across * cos;
      const i = y * width + x;
      out[i] = bilinear(src, sx, sy);
      const rx = roundHalfUp(sx);
      const ry = roundHalfUp(sy);
      if (rx < 0 || ry < 0 || rx >= src.width || ry >= src.height) {
        outside ??= new Uint8Array(width * height);
        outside[i] = 1;
      }
    }
  }
  return outside ? { width, height, data: out, outside } : { width, height, data: out };
}

/**
 * Bilinear grey value at (x, y). Past the last full pixel cell the nearest pixel is used; off the raster the value
 * is white (`edges: 'white'`, a margin of paper) or the nearest edge pixel (`'clamp'`).
 */
export function sampleBilinear(src: Raster, x: number, y: number, edges: 'white' | 'clamp'): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  if (x0 < 0 || y0 < 0 || x0 + 1 >= src.width || y0 + 1 >= src.height) {
    let cx = Math.round(x);
    let cy = Math.round(y);
    if (edges === 'clamp') {
      cx = Math.min(src.width - 1, Math.max(0, cx));
      cy = Math.min(src.height - 1, Math.max(0, cy));
    } else if (cx < 0 || cy < 0 || cx >= src.width || cy >= src.height) {
      return 255;
    }
    return src.data[cy * src.width + cx] ?? 255;
  }
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * src.width + x0;
  const a = src.data[i] ?? 0;
  const b = src.data[i + 1] ?? 0;
  const c = src.data[i + src.width] ?? 0;
  const d = src.data[i + src.width + 1] ?? 0;
  return a * (1 - fx) * (1 - fy) + b * fx * (1 - fy) + c * (1 - fx) * fy + d * fx * fy;
}

const bilinear = (src: Raster, x: number, y: number): number =>
  roundHalfUp(sampleBilinear(src, x, y, 'white'));

/** Scale a grey raster with bilinear sampling (working copies for the zone search). */
export function resizeRaster(src: Raster, width: number, height: number): Raster {
  const out = new Uint8Array(width * height);
  const sx = src.width / width;
  const sy = src.height / height;
  // The sampling positions repeat along rows and columns: cells and weights are worked out once per column.
  const xs = new Float64Array(width);
  const x0s = new Int32Array(width);
  const inner = new Uint8Array(width);
  for (let x = 0; x < width; x++) {
    xs[x] = (x + 0.5) * sx - 0.5;
    x0s[x] = Math.floor(xs[x]!);
    inner[x] = x0s[x]! >= 0 && x0s[x]! + 1 < src.width ? 1 : 0;
  }
  const data = src.data;
  const stride = src.width;
  for (let y = 0; y < height; y++) {
    const fyAt = (y + 0.5) * sy - 0.5;
    const y0 = Math.floor(fyAt);
    const row = y * width;
    if (y0 < 0 || y0 + 1 >= src.height) {
      for (let x = 0; x < width; x++) out[row + x] = bilinear(src, xs[x]!, fyAt);
      continue;
    }
    const fy = fyAt - y0;
    for (let x = 0; x < width; x++) {
      if (!inner[x]) {
        out[row + x] = bilinear(src, xs[x]!, fyAt);
        continue;
      }
      // sampleBilinear's interior formula, term for term, so the result is the same to the last bit.
      const fx = xs[x]! - x0s[x]!;
      const i = y0 * stride + x0s[x]!;
      const v =
        data[i]! * (1 - fx) * (1 - fy) +
        data[i + 1]! * fx * (1 - fy) +
        data[i + stride]! * (1 - fx) * fy +
        data[i + stride + 1]! * fx * fy;
      out[row + x] = roundHalfUp(v);
    }
  }
  return { width, height, data: out };
}

/** Smallest local range (grey levels) that is stretched: flatter neighbourhoods are paper, left light. */
const MIN_LOCAL_RANGE = 24;

/**
 * Stretch a line strip's contrast column by column: each column's darkest and lightest values, taken over
 * `window` columns either side, become black and white. Light falling off along the line, a glare spot or a
 * shadow across part of it then reach the recogniser like even print. Columns whose neighbourhood is flat
 * (paper between words, a margin) are mapped against the strip's overall range instead. Pixels beyond the
 * image (`outside`) stay white and count for nothing: next to a dim page their white would pass for its paper.
 */
export function normaliseStrip(src: Cut, window: number): Raster {
  const { width, height, data, outside } = src;
  const lows = new Float64Array(width);
  const highs = new Float64Array(width);
  let globalLow = 255;
  let globalHigh = 0;
  for (let x = 0; x < width; x++) {
    let low = 255;
    let high = 0;
    for (let y = 0; y < height; y++) {
      if (outside?.[y * width + x]) continue;
      const v = data[y * width + x]!;
      if (v < low) low = v;
      if (v > high) high = v;
    }
    lows[x] = low;
    highs[x] = high;
    globalLow = Math.min(globalLow, low);
    globalHigh = Math.max(globalHigh, high);
  }
  const w = Math.max(1, Math.round(window));
  const out = new Uint8Array(width * height);
  for (let x = 0; x < width; x++) {
    let low = 255;
    let high = 0;
    for (let j = Math.max(0, x - w); j <= Math.min(width - 1, x + w); j++) {
      if (lows[j]! < low) low = lows[j]!;
      if (highs[j]! > high) high = highs[j]!;
    }
    if (high - low < MIN_LOCAL_RANGE) {
      high = globalHigh;
      low = Math.min(globalLow, globalHigh - MIN_LOCAL_RANGE);
    }
    const scale = 255 / (high - low);
    for (let y = 0; y < height; y++) {
      const i = y * width + x;
      out[i] = outside?.[i] ? 255 : Math.max(0, Math.min(255, roundHalfUp((data[i]! - low) * scale)));
    }
  }
  return { width, height, data: out };
}
