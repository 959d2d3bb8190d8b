import { describe, expect, it } from 'vitest';
import { extractFeatures } from '../extract/index.js';
import { syntheticFeatureRecord, syntheticFingerprint } from '../synthetic/index.js';
import type { FingerprintFeatures } from '../types.js';
import {
  computeCylinders,
  CYLINDER_WORDS,
  cylinderSimilarity,
  decodeCylinders,
  encodeCylinders,
} from './cylinders.js';

/** The same minutiae after turning the finger by `angle` about (150, 200) and shifting it (y down, CCW angles). */
function moved(features: FingerprintFeatures, angle: number, dx: number, dy: number): FingerprintFeatures {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return {
    ...features,
    minutiae: features.minutiae.map((m) => ({
      ...m,
      x: 150 + cos * (m.x - 150) + sin * (m.y - 200) + dx,
      y: 200 - sin * (m.x - 150) + cos * (m.y - 200) + dy,
      angle: (m.angle + angle + 2 * Math.PI) % (2 * Math.PI),
    })),
  };
}

describe('minutia cylinders', () => {
  it('survive a storage round trip', () => {
    const c = computeCylinders(syntheticFeatureRecord(3));
    expect(c.n).toBeGreaterThan(10);
    expect(c.bits.length).toBe(c.n * CYLINDER_WORDS);
    const back = decodeCylinders(encodeCylinders(c));
    expect(Array.from(back.bits)).toEqual(Array.from(c.bits));
    expect(Array.from(back.counts)).toEqual(Array.from(c.counts));
  });

  it('hardly change when the finger is turned and moved', () => {
    const features = syntheticFeatureRecord(17);
    const a = computeCylinders(features);
    expect(cylinderSimilarity(a, a)).toBe(1);
    // Grid cells are not rotation invariant at their borders, so allow a little loss.
    expect(cylinderSimilarity(a, computeCylinders(moved(features, 0.6, 25, -18)))).toBeGreaterThan(0.85);
  });

  it('scores the same finger above other fingers, and needs minutiae only', () => {
    const fingers = [41, 42, 43, 44, 45, 46];
    const enrolled = fingers.map((s) => computeCylinders(extractFeatures(syntheticFingerprint(s, 0))));
    let correct = 0;
    fingers.forEach((s, i) => {
      const probe = computeCylinders(extractFeatures(syntheticFingerprint(s, 1)));
      const sims = enrolled.map((e) => cylinderSimilarity(probe, e));
      if (sims.indexOf(Math.max(...sims)) === i) correct++;
    });
    expect(correct).toBeGreaterThanOrEqual(5);
  });

  it('gives an empty print similarity 0', () => {
    const empty = computeCylinders({ width: 300, height: 400, dpi: 500, quality: 0, minutiae: [] });
    expect(empty.n).toBe(0);
    expect(cylinderSimilarity(empty, computeCylinders(syntheticFeatureRecord(5)))).toBe(0);
  });
});
