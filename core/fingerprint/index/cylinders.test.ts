import { describe, expect, it } from 'vitest';
import { movedPrint, rankOneHits } from '../../testing/fingerprints.js';
import { syntheticFeatureRecord } from '../synthetic/index.js';
import {
  computeCylinders,
  CYLINDER_WORDS,
  cylinderSimilarity,
  decodeCylinders,
  encodeCylinders,
} from './cylinders.js';

describe('minutia cylinders', () => {
  it('survive a storage round trip', () => {
    const c = computeCylinders(syntheticFeatureRecord(3));
    expect(c.n).toBeGreaterThan(10);
    expect(c.bits.length).toBe(c.n * CYLINDER_WORDS);
    const back = decodeCylinders(encodeCylinders(c));
    expect(Array.from(back.bits)).toEqual(Array.from(c.bits));
    expect(Array.from(back.counts)).toEqual(Array.from(c.counts));
    expect(Array.from(back.directions)).toEqual(Array.from(c.directions));
    expect(c.stars.keys.length).toBeGreaterThan(c.n);
    expect(Array.from(back.stars.keys)).toEqual(Array.from(c.stars.keys));
    expect(Array.from(back.stars.directions)).toEqual(Array.from(c.stars.directions));
    expect(() => decodeCylinders(encodeCylinders(c).subarray(0, 40))).toThrow(/version or the wrong length/);
  });

  it('hardly change when the finger is turned and moved', () => {
    const features = syntheticFeatureRecord(17);
    const a = computeCylinders(features);
    expect(cylinderSimilarity(a, a)).toBe(1);
    // Grid cells are not rotation invariant at their borders, so allow a little loss.
    expect(cylinderSimilarity(a, computeCylinders(movedPrint(features, 0.6, 25, -18)))).toBeGreaterThan(0.85);
  });

  it('scores the same finger above other fingers, and needs minutiae only', () => {
    expect(
      rankOneHits([41, 42, 43, 44, 45, 46], computeCylinders, cylinderSimilarity),
    ).toBeGreaterThanOrEqual(5);
  });

  it('gives an empty print similarity 0', () => {
    const empty = computeCylinders({ width: 300, height: 400, dpi: 500, quality: 0, minutiae: [] });
    expect(empty.n).toBe(0);
    expect(cylinderSimilarity(empty, computeCylinders(syntheticFeatureRecord(5)))).toBe(0);
  });
});
