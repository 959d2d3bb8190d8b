import { describe, expect, it } from 'vitest';
import { fitHomography, invert3, isPlausibleOutline, project, projectOutline } from './homography.js';
import { ransacHomography } from './ransac.js';

const H = Float64Array.from([0.9, -0.12, 40, 0.08, 1.05, 25, 0.0004, -0.0002, 1]);

function grid(): number[] {
  const points: number[] = [];
  for (let y = 0; y <= 200; y += 25) for (let x = 0; x <= 300; x += 30) points.push(x, y);
  return points;
}

function mapped(points: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < points.length; i += 2) out.push(...project(H, points[i]!, points[i + 1]!)!);
  return out;
}

describe('homography', () => {
  it('recovers a perspective transform from exact correspondences', () => {
    const from = grid();
    const to = mapped(from);
    const fitted = fitHomography(
      { from, to },
      Array.from({ length: from.length / 2 }, (_, i) => i),
    )!;
    for (let i = 0; i < 9; i++) expect(fitted[i]).toBeCloseTo(H[i]!, 6);
  });

  it('inverts', () => {
    const inverse = invert3(H)!;
    const [x, y] = project(H, 123, 45)!;
    const back = project(inverse, x, y)!;
    expect(back[0]).toBeCloseTo(123, 6);
    expect(back[1]).toBeCloseTo(45, 6);
  });

  it('finds the model among 40% outliers with RANSAC and reports its inliers', () => {
    const from = grid();
    const to = mapped(from);
    const n = from.length / 2;
    // Replace every 5th and 5th+2 correspondence by a deterministic wrong target.
    for (let i = 0; i < n; i++) {
      if (i % 5 === 0 || i % 5 === 2) {
        to[i * 2] = (i * 37) % 300;
        to[i * 2 + 1] = (i * 53) % 200;
      }
    }
    const fit = ransacHomography({ from, to }, { threshold: 2 })!;
    expect(fit.inliers.length).toBeGreaterThanOrEqual(Math.floor(n * 0.6) - 1);
    expect(fit.meanError).toBeLessThan(0.01);
    const p = project(fit.homography, 150, 100)!;
    const q = project(H, 150, 100)!;
    expect(Math.hypot(p[0] - q[0], p[1] - q[1])).toBeLessThan(0.01);
  });

  it('returns null with fewer than four pairs', () => {
    expect(ransacHomography({ from: [0, 0, 1, 1, 2, 0], to: [0, 0, 1, 1, 2, 0] })).toBeNull();
  });

  it('accepts a projected card outline and rejects mirrored or collapsed ones', () => {
    expect(isPlausibleOutline(projectOutline(H, 200, 240)!)).toBe(true);
    const mirror = Float64Array.from([-1, 0, 300, 0, 1, 0, 0, 0, 1]);
    expect(isPlausibleOutline(projectOutline(mirror, 200, 240)!)).toBe(false);
    const collapsed = Float64Array.from([1, 0, 0, 0, 0.05, 0, 0, 0, 1]);
    expect(isPlausibleOutline(projectOutline(collapsed, 200, 240)!)).toBe(false);
  });
});
