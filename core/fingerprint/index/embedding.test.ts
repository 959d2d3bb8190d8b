import { describe, expect, it } from 'vitest';
import { extractFeatures } from '../extract/index.js';
import { syntheticFeatureRecord, syntheticFingerprint } from '../synthetic/index.js';
import type { FingerprintFeatures } from '../types.js';
import { computeEmbedding, cosineSimilarity, EMBEDDING_DIMS } from './embedding.js';

/** The same minutiae after turning the finger by `angle` about (cx, cy) and shifting it. */
function moved(features: FingerprintFeatures, angle: number, dx: number, dy: number): FingerprintFeatures {
  const cx = 150;
  const cy = 200;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return {
    ...features,
    // A counter-clockwise turn as seen on screen, with y pointing down.
    minutiae: features.minutiae.map((m) => ({
      ...m,
      x: cx + cos * (m.x - cx) + sin * (m.y - cy) + dx,
      y: cy - sin * (m.x - cx) + cos * (m.y - cy) + dy,
      angle: (m.angle + angle + 2 * Math.PI) % (2 * Math.PI),
    })),
  };
}

describe('1:N embedding', () => {
  it('has a fixed length and unit norm', () => {
    const e = computeEmbedding(syntheticFeatureRecord(5));
    expect(e.length).toBe(EMBEDDING_DIMS);
    expect(cosineSimilarity(e, e)).toBeCloseTo(1, 5);
  });

  it('does not change when the finger is turned and moved', () => {
    const features = syntheticFeatureRecord(17);
    const a = computeEmbedding(features);
    const b = computeEmbedding(moved(features, 0.6, 25, -18));
    expect(cosineSimilarity(a, b)).toBeGreaterThan(0.999);
  });

  it('places impressions of one finger nearer than other fingers', () => {
    const fingers = [31, 32, 33, 34, 35, 36];
    const enrolled = fingers.map((s) => computeEmbedding(extractFeatures(syntheticFingerprint(s, 0))));
    let correct = 0;
    fingers.forEach((s, i) => {
      const probe = computeEmbedding(extractFeatures(syntheticFingerprint(s, 1)));
      const sims = enrolled.map((e) => cosineSimilarity(probe, e));
      if (sims.indexOf(Math.max(...sims)) === i) correct++;
    });
    expect(correct).toBeGreaterThanOrEqual(5);
  });
});
