import { describe, expect, it } from 'vitest';
import type { Raster } from './morphology.js';
import { resizeRaster, sampleRotatedRect, stretchContrast } from './sample.js';

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

  it('stretches a faint strip to full contrast and leaves a flat one alone', () => {
    const faint: Raster = {
      width: 100,
      height: 1,
      data: Uint8Array.from({ length: 100 }, (_, i) => 100 + Math.floor(i / 2)),
    };
    const stretched = stretchContrast(faint);
    expect(Math.min(...stretched.data)).toBe(0);
    expect(Math.max(...stretched.data)).toBe(255);
    const flat: Raster = { width: 10, height: 1, data: new Uint8Array(10).fill(128) };
    expect(stretchContrast(flat)).toBe(flat);
  });

  it('resizes by bilinear sampling', () => {
    const small = resizeRaster(gradient(10, 2), 5, 1);
    expect(small.data.length).toBe(5);
    expect(small.data[0]).toBeLessThan(small.data[4]!);
  });
});
