/**
 * Filters on interleaved 8-bit RGB in plain JavaScript, where libvips' own costs several times the arithmetic on the
 * few-hundred-pixel windows they serve.
 */

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
