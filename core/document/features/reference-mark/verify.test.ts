import { describe, expect, it } from 'vitest';
import type { GrayImage } from '../orb/gray-image.js';
import { makeTemplate, templateCorrelation } from './verify.js';
import { inlierScore, photometricFactor } from './match-mark.js';

function pattern(width: number, height: number, f: (x: number, y: number) => number): GrayImage {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data[y * width + x] = Math.max(0, Math.min(255, Math.round(f(x, y))));
  return { data, width, height };
}

const rings = (x: number, y: number): number => 128 + 100 * Math.sin(Math.hypot(x - 100, y - 120) / 9);
const bars = (x: number, _y: number): number => 128 + 100 * Math.sin(x / 7);

describe('template correlation', () => {
  const mark = pattern(200, 240, rings);
  const template = makeTemplate(mark);

  it('shrinks the mark to an 80-pixel template', () => {
    expect(Math.max(template.width, template.height)).toBe(80);
  });

  it('is near 1 where the mark is printed, whatever the lighting', () => {
    // The card shows the mark at half size, offset by (300, 50), at 60% brightness.
    const card = pattern(600, 400, (x, y) =>
      x >= 300 && x < 400 && y >= 50 && y < 170 ? 0.6 * rings((x - 300) * 2, (y - 50) * 2) : 90,
    );
    const h = [0.5, 0, 300, 0, 0.5, 50, 0, 0, 1];
    expect(templateCorrelation(template, mark, h, card)).toBeGreaterThan(0.95);
  });

  it('is low where another picture is printed, and null off the card', () => {
    const card = pattern(600, 400, (x, y) =>
      x >= 300 && x < 400 && y >= 50 && y < 170 ? bars((x - 300) * 2, (y - 50) * 2) : 90,
    );
    expect(templateCorrelation(template, mark, [0.5, 0, 300, 0, 0.5, 50, 0, 0, 1], card)).toBeLessThan(0.3);
    expect(templateCorrelation(template, mark, [0.5, 0, 900, 0, 0.5, 50, 0, 0, 1], card)).toBeNull();
  });
});

describe('mark score', () => {
  it('needs both inliers and a matching picture', () => {
    expect(inlierScore(4, 15)).toBe(0);
    expect(inlierScore(15, 15)).toBeCloseTo(0.5, 5);
    expect(inlierScore(60, 15)).toBeGreaterThan(0.8);
    expect(photometricFactor(null)).toBe(1);
    expect(photometricFactor(0.97)).toBe(1);
    expect(photometricFactor(0.7)).toBeCloseTo(1 / 3, 5);
    expect(photometricFactor(0.5)).toBe(0);
  });
});
