import { describe, expect, it } from 'vitest';
import { dilate, erode, otsuThreshold, type Raster } from './morphology.js';

function random(width: number, height: number, seed = 7): Raster {
  let s = seed;
  const data = new Uint8Array(width * height).map(() => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % 256;
  });
  return { width, height, data };
}

/** Brute-force extremum over a w×h window with clamped edges: the reference the fast filter must equal. */
function naive(src: Raster, w: number, h: number, max: boolean): Uint8Array {
  const out = new Uint8Array(src.data.length);
  const hw = Math.floor(w / 2);
  const hh = Math.floor(h / 2);
  for (let y = 0; y < src.height; y++) {
    for (let x = 0; x < src.width; x++) {
      let v = max ? 0 : 255;
      for (let dy = -hh; dy <= hh; dy++) {
        for (let dx = -hw; dx <= hw; dx++) {
          const yy = Math.min(src.height - 1, Math.max(0, y + dy));
          const xx = Math.min(src.width - 1, Math.max(0, x + dx));
          const p = src.data[yy * src.width + xx]!;
          v = max ? Math.max(v, p) : Math.min(v, p);
        }
      }
      out[y * src.width + x] = v;
    }
  }
  return out;
}

describe('morphology', () => {
  it('dilates and erodes exactly like a brute-force window', () => {
    const src = random(23, 17);
    for (const [w, h] of [
      [1, 1],
      [3, 1],
      [5, 3],
      [7, 9],
    ] as const) {
      expect(Array.from(dilate(src, w, h).data)).toEqual(Array.from(naive(src, w, h, true)));
      expect(Array.from(erode(src, w, h).data)).toEqual(Array.from(naive(src, w, h, false)));
    }
  });

  it('splits a two-level histogram between its levels', () => {
    const data = new Uint8Array(1000).map((_, i) => (i < 600 ? 40 : 200));
    const t = otsuThreshold(data);
    expect(t).toBeGreaterThanOrEqual(40);
    expect(t).toBeLessThan(200);
  });
});
