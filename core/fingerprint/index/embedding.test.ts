import { describe, expect, it } from 'vitest';
import { movedPrint, rankOneHits } from '../../testing/fingerprints.js';
import { syntheticFeatureRecord } from '../synthetic/index.js';
import { cosineSimilarity, l2Norm } from '../../math/vectors.js';
import { computeEmbedding, EMBEDDING_DIMS } from './embedding.js';

describe('1:N embedding', () => {
  it('has a fixed length and unit norm', () => {
    const e = computeEmbedding(syntheticFeatureRecord(5));
    expect(e.length).toBe(EMBEDDING_DIMS);
    expect(l2Norm(e)).toBeCloseTo(1, 5);
  });

  it('does not change when the finger is turned and moved', () => {
    const features = syntheticFeatureRecord(17);
    const a = computeEmbedding(features);
    const b = computeEmbedding(movedPrint(features, 0.6, 25, -18));
    expect(cosineSimilarity(a, b)).toBeGreaterThan(0.999);
  });

  it('places impressions of one finger nearer than other fingers', () => {
    expect(rankOneHits([31, 32, 33, 34, 35, 36], computeEmbedding, cosineSimilarity)).toBeGreaterThanOrEqual(
      5,
    );
  });
});
