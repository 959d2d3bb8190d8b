import type { Point } from '../types.js';

function mean(points: readonly Point[], indices: readonly number[]): Point {
  let x = 0;
  let y = 0;
  for (const i of indices) {
    x += points[i]![0];
    y += points[i]![1];
  }
  return [x / indices.length, y / indices.length];
}

/**
 * The five ArcFace points from the 68 iBUG landmarks: eye centres (mean of the four eyelid points), nose tip (30),
 * mouth corners (mean of outer and inner lip corner).
 */
export function fivePointsFrom68(points: readonly Point[]): Point[] {
  if (points.length !== 68) throw new Error(`Expected 68 landmarks, got ${points.length}.`);
  return [
    mean(points, [37, 38, 40, 41]),
    mean(points, [43, 44, 46, 47]),
    mean(points, [30]),
    mean(points, [48, 60]),
    mean(points, [54, 64]),
  ];
}

/** Distance between the two eye centres of a five-point set (the ICAO size measure of a face). */
export function interEyeDistance(five: readonly Point[]): number {
  const l = five[0]!;
  const r = five[1]!;
  return Math.hypot(r[0] - l[0], r[1] - l[1]);
}
