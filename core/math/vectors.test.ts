import { describe, expect, it } from 'vitest';
import { cosineSimilarity, l2Norm, l2Normalize } from './vectors.js';

describe('vectors', () => {
  it('normalises and compares embeddings', () => {
    const v = l2Normalize(Float32Array.from([3, 4]));
    expect(Array.from(v)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(l2Norm(v)).toBeCloseTo(1, 6);
    expect(cosineSimilarity(Float32Array.from([1, 0]), Float32Array.from([1, 1]))).toBeCloseTo(
      Math.SQRT1_2,
      6,
    );
  });

  it('leaves a zero vector zero and scores it 0', () => {
    const zero = l2Normalize(new Float32Array(3));
    expect(Array.from(zero)).toEqual([0, 0, 0]);
    expect(cosineSimilarity(zero, Float32Array.from([1, 2, 3]))).toBe(0);
  });

  it('refuses vectors of different sizes', () => {
    expect(() => cosineSimilarity(new Float32Array(2), new Float32Array(3))).toThrow(/sizes differ/);
  });
});
