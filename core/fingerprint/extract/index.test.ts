import { describe, expect, it } from 'vitest';
import { decodePeriods, PERIOD_UNKNOWN } from '../template/extra.js';
import { extractFeatures } from './index.js';
import { renderRidges } from './test-patterns.js';

/** Smallest angular distance between two angles in radians. */
function angleError(a: number, b: number): number {
  const d = Math.abs(a - b) % (2 * Math.PI);
  return Math.min(d, 2 * Math.PI - d);
}

describe('extractFeatures', () => {
  it('finds the ridge ending of a pattern with one extra ridge on the right, pointing into it (ISO: 0)', () => {
    const features = extractFeatures(renderRidges(200, 10, 0, { x: 100, y: 100 }));
    const near = features.minutiae.filter((m) => Math.hypot(m.x - 100, m.y - 100) < 10);
    expect(near.length).toBe(1);
    expect(near[0]!.type).toBe('ending');
    expect(angleError(near[0]!.angle, 0)).toBeLessThan(0.3);
  });

  it('measures angles counter-clockwise with y down: an extra ridge towards the top of the screen is PI/2', () => {
    // Ridges run along y; (cos, sin) of -PI/2 is (0, -1): up on screen.
    const features = extractFeatures(renderRidges(200, 10, -Math.PI / 2, { x: 100, y: 100 }));
    const near = features.minutiae.filter((m) => Math.hypot(m.x - 100, m.y - 100) < 10);
    expect(near.length).toBe(1);
    expect(angleError(near[0]!.angle, Math.PI / 2)).toBeLessThan(0.3);
  });

  it('points the other way when the extra ridge is on the other side (3PI/2 for down)', () => {
    const features = extractFeatures(renderRidges(200, 10, Math.PI / 2, { x: 100, y: 100 }));
    const near = features.minutiae.filter((m) => Math.hypot(m.x - 100, m.y - 100) < 10);
    expect(near.length).toBe(1);
    expect(angleError(near[0]!.angle, (3 * Math.PI) / 2)).toBeLessThan(0.3);
  });

  it('reports few minutiae, a mid or high quality and a compact flow map on a clean pattern; 0 quality on a blank image', () => {
    const clean = extractFeatures(renderRidges(200, 10, 0.4));
    expect(clean.minutiae.length).toBeLessThan(5);
    expect(clean.extra!.length).toBeLessThan(2048);
    const blank = extractFeatures({ width: 100, height: 100, data: new Uint8Array(100 * 100).fill(200) });
    expect(blank.minutiae.length).toBe(0);
    expect(blank.quality).toBe(0);
  });

  it('stores the ridge period of the print in the flow map: 8 or 11 pixels as drawn', () => {
    for (const period of [8, 11]) {
      const known = [...decodePeriods(extractFeatures(renderRidges(200, period, 0.4)).extra)!].filter(
        (v) => v !== PERIOD_UNKNOWN,
      );
      expect(known.length).toBeGreaterThan(50);
      const sorted = known.sort((a, b) => a - b);
      expect(sorted[sorted.length >> 1]! / 10).toBeCloseTo(period, 0);
    }
  });

  it('finds the ending of fine ridges (7 px, read enlarged) where it is drawn, with features at 500 dpi', () => {
    const features = extractFeatures(renderRidges(200, 7, 0, { x: 100, y: 100 }));
    const near = features.minutiae.filter((m) => Math.hypot(m.x - 100, m.y - 100) < 8);
    expect(near.length).toBe(1);
    expect(angleError(near[0]!.angle, 0)).toBeLessThan(0.3);
    expect([features.width, features.height, features.dpi]).toEqual([200, 200, 500]);
    const periods = [...decodePeriods(features.extra)!]
      .filter((v) => v !== PERIOD_UNKNOWN)
      .sort((a, b) => a - b);
    expect(periods[periods.length >> 1]! / 10).toBeCloseTo(7, 0);
  });

  it('resamples other resolutions to 500 dpi', () => {
    const image = renderRidges(200, 20, 0, { x: 100, y: 100 });
    const features = extractFeatures(image, { dpi: 1000 });
    expect(features.minutiae.some((m) => Math.hypot(m.x - 50, m.y - 50) < 6)).toBe(true);
    expect(features.dpi).toBe(500);
    expect(features.width).toBe(100);
  });
});
