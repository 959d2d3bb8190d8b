import { describe, expect, it } from 'vitest';
import type { Raster } from './morphology.js';
import { normaliseStrip, resizeRaster, sampleBilinear, sampleRotatedRect } from './sample.js';

function gradient(width: number, height: number): Raster {
  return { width, height, data: Uint8Array.from({ length: width * height }, (_, i) => (i % width) * 10) };
}

describe('line sampling', () => {
  it('cuts an upright rectangle out unchanged and a turned one rotated', () => {
    const src = gradient(10, 6);
    const same = sampleRotatedRect(src, { cx: 4.5, cy: 2.5, width: 10, height: 6, angle: 0 });
    expect(Array.from(same.data)).toEqual(Array.from(src.data));
    // Turned by 90°, the cut's rows run down the source's columns: every pixel of a row has the same value.
    const turned = sampleRotatedRect(src, { cx: 4.5, cy: 2.5, width: 4, height: 4, angle: Math.PI / 2 });
    const row = Array.from(turned.data.slice(0, 4));
    expect(new Set(row).size).toBe(1);
  });

  it('is white outside the image, like paper', () => {
    const out = sampleRotatedRect(gradient(4, 4), { cx: 100, cy: 100, width: 3, height: 2, angle: 0 });
    expect(Array.from(out.data)).toEqual([255, 255, 255, 255, 255, 255]);
  });

  it('stretches a strip column by column: a dim end and a glare end both reach black and white', () => {
    const width = 200;
    const height = 10;
    const data = new Uint8Array(width * height);
    for (let x = 0; x < width; x++) {
      // Paper and ink both lighter to the right (glare), the ink every 10 columns on rows 3-6.
      const paper = 90 + Math.round((x / width) * 160);
      const ink = 20 + Math.round((x / width) * 170);
      for (let y = 0; y < height; y++) data[y * width + x] = x % 10 < 4 && y >= 3 && y <= 6 ? ink : paper;
    }
    const out = normaliseStrip({ width, height, data }, 15);
    for (const x of [20, 180]) {
      expect(out.data[4 * width + x]).toBeLessThan(30);
      expect(out.data[0 * width + x]).toBeGreaterThan(200);
    }
    const flat: Raster = { width: 10, height: 2, data: new Uint8Array(20).fill(200) };
    expect(Math.min(...normaliseStrip(flat, 3).data)).toBeGreaterThan(0);
  });

  it('keeps the paper of a dim page light where the strip runs off the image', () => {
    // A dim page (paper 120, ink 60 every 10 columns) cut with 20 columns beyond its right edge.
    const width = 100;
    const height = 10;
    const data = new Uint8Array(width * height);
    for (let i = 0; i < data.length; i++) data[i] = i % 10 < 3 && Math.floor(i / width) % 10 >= 3 ? 60 : 120;
    const cut = sampleRotatedRect(
      { width, height, data },
      { cx: 59.5, cy: 4.5, width: 100, height: 10, angle: 0 },
    );
    expect(cut.outside?.[0]).toBe(0);
    expect(cut.outside?.[99]).toBe(1);
    const out = normaliseStrip(cut, 15);
    // Paper and ink beside the edge: the white beyond it is not taken for the paper's brightness.
    expect(out.data[1 * width + 75]).toBeGreaterThan(200);
    expect(out.data[5 * width + 71]).toBeLessThan(30);
    expect(out.data[5 * width + 95]).toBe(255);
  });

  it('resizes by bilinear sampling', () => {
    const small = resizeRaster(gradient(10, 2), 5, 1);
    expect(small.data.length).toBe(5);
    expect(small.data[0]).toBeLessThan(small.data[4]!);
  });

  it('resizes to exactly the bilinear value at each pixel centre, down and up, edges included', () => {
    let s = 11;
    const data = new Uint8Array(37 * 23).map(() => (s = (s * 1103515245 + 12345) % 2147483648) % 256);
    const src = { width: 37, height: 23, data };
    for (const [w, h] of [
      [19, 12],
      [36, 22],
      [80, 51],
      [37, 23],
      [5, 40],
    ] as const) {
      const out = resizeRaster(src, w, h);
      const expected = Array.from({ length: w * h }, (_, i) => {
        const x = ((i % w) + 0.5) * (src.width / w) - 0.5;
        const y = (Math.floor(i / w) + 0.5) * (src.height / h) - 0.5;
        return Math.round(sampleBilinear(src, x, y, 'white'));
      });
      expect(Array.from(out.data)).toEqual(expected);
    }
  });
});
