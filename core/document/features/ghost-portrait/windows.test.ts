import { describe, expect, it } from 'vitest';
import { ghostScore, isGhostCandidate, overlap, planWindows } from './windows.js';

describe('ghost-portrait search planning', () => {
  const main = { x: 100, y: 200, width: 150, height: 150 };

  it('covers the whole card with windows about six ghost faces wide', () => {
    const windows = planWindows(1011, 638, main);
    expect(windows.length).toBeGreaterThan(4);
    for (const w of windows) {
      expect(w.width).toBe(360);
      expect(w.x + w.width).toBeLessThanOrEqual(1011);
      expect(w.y + w.height).toBeLessThanOrEqual(638);
    }
    // Every pixel of the card lies in some window, except those deep inside the main portrait.
    for (const [x, y] of [
      [0, 0],
      [1010, 637],
      [700, 350],
      [1010, 0],
      [0, 637],
    ] as const) {
      expect(windows.some((w) => x >= w.x && x < w.x + w.width && y >= w.y && y < w.y + w.height)).toBe(true);
    }
  });

  it('skips windows lying mostly in a clear zone, such as the MRZ', () => {
    const mrz = { x: 30, y: 430, width: 950, height: 208 };
    const all = planWindows(1011, 638, main);
    const planned = planWindows(1011, 638, main, undefined, 0, [mrz]);
    expect(planned.length).toBeLessThan(all.length);
    const inside = (w: { y: number; height: number }): number =>
      Math.max(0, Math.min(w.y + w.height, 638) - Math.max(w.y, 430)) / w.height;
    expect(planned.every((w) => inside(w) <= 0.5)).toBe(true);
    expect(all.some((w) => inside(w) > 0.5)).toBe(true);
    // The card above the zone is still covered.
    expect(planned.some((w) => 700 >= w.x && 700 < w.x + w.width && 350 >= w.y && 350 < w.y + w.height)).toBe(
      true,
    );
  });

  it('accepts smaller faces outside the main portrait only', () => {
    expect(isGhostCandidate(main, { x: 700, y: 300, width: 60, height: 60 })).toBe(true);
    expect(isGhostCandidate(main, { x: 120, y: 220, width: 60, height: 60 })).toBe(false);
    expect(isGhostCandidate(main, { x: 700, y: 300, width: 140, height: 140 })).toBe(false);
    expect(isGhostCandidate(main, { x: 700, y: 300, width: 20, height: 20 })).toBe(false);
    expect(overlap(main, main)).toBe(1);
  });

  it('maps similarity to a score', () => {
    expect(ghostScore(0.1)).toBe(0);
    expect(ghostScore(0.475)).toBeCloseTo(0.5, 5);
    expect(ghostScore(0.9)).toBe(1);
  });
});
