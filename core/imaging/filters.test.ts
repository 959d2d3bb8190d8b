import { describe, expect, it } from 'vitest';
import { median3, stretchContrast } from './filters.js';

/** A pseudo-random RGB image. */
function noise(width: number, height: number, seed = 7): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  let s = seed;
  for (let i = 0; i < rgb.length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    rgb[i] = s >> 23;
  }
  return rgb;
}

describe('median3', () => {
  it('is the median of each pixel’s 3x3 neighbourhood per channel, edges repeated', () => {
    const [width, height] = [23, 17];
    const rgb = noise(width, height);
    const out = median3(rgb, width, height);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        for (let c = 0; c < 3; c++) {
          const near: number[] = [];
          for (let dy = -1; dy <= 1; dy++)
            for (let dx = -1; dx <= 1; dx++) {
              const yy = Math.min(height - 1, Math.max(0, y + dy));
              const xx = Math.min(width - 1, Math.max(0, x + dx));
              near.push(rgb[(yy * width + xx) * 3 + c]!);
            }
          near.sort((a, b) => a - b);
          expect(out[(y * width + x) * 3 + c]).toBe(near[4]);
        }
  });

  it('removes a one-pixel line and keeps an edge', () => {
    const [width, height] = [12, 12];
    const rgb = new Uint8Array(width * height * 3).fill(200);
    for (let x = 0; x < width; x++) rgb.fill(0, (5 * width + x) * 3, (5 * width + x) * 3 + 3);
    for (let y = 0; y < height; y++) rgb.fill(50, (y * width + 8) * 3, (y * width + width) * 3);
    const out = median3(rgb, width, height);
    expect(out[(5 * width + 3) * 3]).toBe(200);
    expect(out[(2 * width + 7) * 3]).toBe(200);
    expect(out[(2 * width + 8) * 3]).toBe(50);
  });
});

describe('stretchContrast', () => {
  /** A grey image of these levels, one pixel each. */
  const grey = (levels: number[]): Uint8Array => {
    const rgb = new Uint8Array(levels.length * 3);
    levels.forEach((v, i) => rgb.fill(v, i * 3, i * 3 + 3));
    return rgb;
  };

  it('takes the darkest percent to black and the lightest pixel to white, keeping light shades apart', () => {
    // 200 pixels: 2 dark outliers, then levels 100..197 and 200.
    const levels = [10, 12, ...Array.from({ length: 197 }, (_, i) => 100 + Math.floor(i / 2)), 200];
    const out = stretchContrast(grey(levels));
    expect(out[0]).toBe(0);
    expect(out[1 * 3]).toBe(0);
    expect(out[(levels.length - 1) * 3]).toBe(255);
    // The light end is spread out, not clipped: 190, 195 and 198 stay three shades.
    const at = (level: number): number => out[levels.indexOf(level) * 3]!;
    expect(new Set([at(190), at(195), at(198)]).size).toBe(3);
    expect(at(150)).toBeGreaterThan(at(120));
  });

  it('gives every channel the same curve, and leaves one shade as it is', () => {
    const rgb = new Uint8Array([40, 40, 40, 200, 200, 200, 40, 120, 200]);
    const out = stretchContrast(rgb);
    expect(out[6]).toBe(out[0]);
    expect(out[8]).toBe(out[3]);
    const flat = new Uint8Array(30).fill(90);
    expect([...stretchContrast(flat)]).toEqual([...flat]);
  });
});
