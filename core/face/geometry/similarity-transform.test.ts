import { describe, expect, it } from 'vitest';
import type { Point } from '../types.js';
import {
  ARCFACE_REFERENCE,
  applyAffine,
  estimateSimilarity,
  invertAffine,
  type Affine,
} from './similarity-transform.js';

function transform(points: readonly Point[], scale: number, angle: number, tx: number, ty: number): Point[] {
  const c = Math.cos(angle) * scale;
  const s = Math.sin(angle) * scale;
  return points.map(([x, y]) => [c * x - s * y + tx, s * x + c * y + ty]);
}

describe('estimateSimilarity', () => {
  it('recovers an exact rotation, scale and translation', () => {
    const src = transform(ARCFACE_REFERENCE, 2.5, 0.3, 40, -12);
    const m = estimateSimilarity(src, ARCFACE_REFERENCE);
    // Inverse of scale 2.5 rotation 0.3: scale 0.4, rotation -0.3.
    expect(m[0]).toBeCloseTo(0.4 * Math.cos(0.3), 9);
    expect(m[3]).toBeCloseTo(-0.4 * Math.sin(0.3), 9);
    src.forEach((p, i) => {
      const q = applyAffine(m, p);
      expect(q[0]).toBeCloseTo(ARCFACE_REFERENCE[i]![0], 6);
      expect(q[1]).toBeCloseTo(ARCFACE_REFERENCE[i]![1], 6);
    });
  });

  it('is the least-squares fit and never shears (golden values)', () => {
    const src: Point[] = [
      [0, 0],
      [10, 0],
      [5, 5],
      [0, 10],
      [10, 12],
    ];
    const dst: Point[] = [
      [1, 1],
      [21, 1],
      [11, 11],
      [1, 21],
      [21, 21],
    ];
    const m = estimateSimilarity(src, dst);
    expect(m[0]).toBeCloseTo(m[4], 12);
    expect(m[1]).toBeCloseTo(-m[3], 12);
    // Golden values from Umeyama's SVD solution (numpy): [[1.88172043, 0.08960573, 1.10752688], [-0.08960573, 1.88172043, 1.28673835]].
    expect(m[0]).toBeCloseTo(1.88172043, 6);
    expect(m[1]).toBeCloseTo(0.08960573, 6);
    expect(m[2]).toBeCloseTo(1.10752688, 6);
    expect(m[3]).toBeCloseTo(-0.08960573, 6);
    expect(m[5]).toBeCloseTo(1.28673835, 6);
  });

  it('inverts affine matrices', () => {
    const m: Affine = [2, 1, 3, -1, 4, 5];
    const inv = invertAffine(m);
    const p = applyAffine(inv, applyAffine(m, [7, -2]));
    expect(p[0]).toBeCloseTo(7, 9);
    expect(p[1]).toBeCloseTo(-2, 9);
  });
});
