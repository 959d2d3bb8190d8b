import { describe, expect, it } from 'vitest';
import type { Point } from '../types.js';
import { fivePointsFrom68, interEyeDistance } from './landmarks.js';
import { looksUpright, livenessRect, squareAround } from './face-geometry.js';

describe('fivePointsFrom68', () => {
  it('averages eyelids and lip corners, keeps the nose tip', () => {
    const pts: Point[] = Array.from({ length: 68 }, (_, i) => [i, 2 * i]);
    const five = fivePointsFrom68(pts);
    expect(five[0]).toEqual([39, 78]); // mean of 37, 38, 40, 41
    expect(five[1]).toEqual([45, 90]); // mean of 43, 44, 46, 47
    expect(five[2]).toEqual([30, 60]);
    expect(five[3]).toEqual([54, 108]); // mean of 48, 60
    expect(five[4]).toEqual([59, 118]); // mean of 54, 64
    expect(interEyeDistance(five)).toBeCloseTo(Math.hypot(6, 12), 9);
  });
  it('rejects other point counts', () => {
    expect(() => fivePointsFrom68([[0, 0]])).toThrow();
  });
});

describe('face geometry', () => {
  const upright: Point[] = [
    [30, 40],
    [70, 40],
    [50, 60],
    [35, 80],
    [65, 80],
  ];
  it('accepts upright five points and rejects upside-down ones', () => {
    expect(looksUpright(upright)).toBe(true);
    expect(looksUpright(upright.map(([x, y]): Point => [100 - x, 120 - y]))).toBe(false);
  });
  it('squares a box on its height about its centre', () => {
    expect(squareAround({ x: 10, y: 20, width: 40, height: 60 }, 2)).toEqual({
      x: -30,
      y: -10,
      width: 120,
      height: 120,
    });
  });
  it('keeps the liveness crop inside the image, shrinking the scale when needed', () => {
    expect(livenessRect({ x: 40, y: 40, width: 20, height: 20 }, 200, 100, 2.7)).toEqual({
      x: 23,
      y: 23,
      width: 54,
      height: 54,
    });
    // A face filling most of a 100x100 image: the 2.7x square shrinks to the image.
    expect(livenessRect({ x: 10, y: 10, width: 80, height: 80 }, 100, 100, 2.7)).toEqual({
      x: 1,
      y: 1,
      width: 99,
      height: 99,
    });
  });
});
