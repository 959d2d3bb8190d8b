/**
 * Filters on interleaved 8-bit RGB in plain JavaScript: on the few-hundred-pixel windows they serve, libvips'
 * pipelines (and its colour conversions) cost more than the arithmetic.
 */
import { rgbToGray } from './decode.js';

function min3(a: number, b: number, c: number): number {
  return a < b ? (a < c ? a : c) : b < c ? b : c;
}

function max3(a: number, b: number, c: number): number {
  return a > b ? (a > c ? a : c) : b > c ? b : c;
}

function med3(a: number, b: number, c: number): number {
  return a > b ? (b > c ? b : a > c ? c : a) : a > c ? a : b > c ? c : b;
}

/**
 * 3x3 median of each channel, edges repeated. Each window column is sorted once and shared by the three outputs
 * that see it; the median of nine is then the median of the largest low, the middle mid and the smallest high.
 */
export function median3(rgb: Uint8Array, width: number, height: number): Buffer {
  const out = Buffer.allocUnsafe(width * height * 3);
  const lo = new Uint8Array(width);
  const mid = new Uint8Array(width);
  const hi = new Uint8Array(width);
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width * 3;
    const at = y * width * 3;
    const down = Math.min(height - 1, y + 1) * width * 3;
    for (let c = 0; c < 3; c++) {
      for (let x = 0; x < width; x++) {
        const i = x * 3 + c;
        const a = rgb[up + i]!;
        const b = rgb[at + i]!;
        const d = rgb[down + i]!;
        const low = a < b ? a : b;
        const high = a < b ? b : a;
        lo[x] = low < d ? low : d;
        mid[x] = high < d ? high : low > d ? low : d;
        hi[x] = high > d ? high : d;
      }
      for (let x = 0; x < width; x++) {
        const l = x > 0 ? x - 1 : 0;
        const r = x < width - 1 ? x + 1 : width - 1;
        out[at + x * 3 + c] = med3(
          max3(lo[l]!, lo[x]!, lo[r]!),
          med3(mid[l]!, mid[x]!, mid[r]!),
          min3(hi[l]!, hi[x]!, hi[r]!),
        );
      }
    }
  }
  return out;
}

/** CIE lightness L* (0-100) of a grey sRGB level (0-255). */
function lightness(level: number): number {
  const c = level / 255;
  const y = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  return y > (6 / 29) ** 3 ? 116 * Math.cbrt(y) - 16 : (y * 116 * (29 / 6) ** 2) / 3;
}

/** The sRGB level (0-255, unrounded) of a grey of lightness `l`. */
function levelOf(l: number): number {
  const f = (l + 16) / 116;
  const y = f > 6 / 29 ? f ** 3 : 3 * (6 / 29) ** 2 * (f - 4 / 29);
  const c = y <= 0.0031308 ? 12.92 * y : 1.055 * y ** (1 / 2.4) - 0.055;
  return c * 255;
}

/**
 * Contrast stretched in lightness (CIE L*, as one sees it): the `lower` percentile of the luma becomes black and the
 * lightest pixel white, so light print keeps its shades (a percentile at the top would turn it white), and every
 * channel takes the same tone curve. An image of one shade comes back as is.
 */
export function stretchContrast(rgb: Uint8Array, lower = 1): Buffer {
  const pixels = rgb.length / 3;
  const histogram = new Uint32Array(256);
  for (const v of rgbToGray(rgb, pixels, 1)) histogram[v]!++;
  const rank = Math.max(1, Math.ceil((lower / 100) * pixels));
  let low = 0;
  for (let seen = histogram[0]!; seen < rank; seen += histogram[++low]!);
  let high = 255;
  while (high > 0 && histogram[high] === 0) high--;
  const from = lightness(low);
  const span = lightness(high) - from;
  if (span <= 1) return Buffer.from(rgb);
  const map = new Uint8Array(256);
  for (let v = 0; v < 256; v++)
    map[v] = Math.round(levelOf(Math.min(100, Math.max(0, ((lightness(v) - from) * 100) / span))));
  const out = Buffer.allocUnsafe(rgb.length);
  for (let i = 0; i < rgb.length; i++) out[i] = map[rgb[i]!]!;
  return out;
}
