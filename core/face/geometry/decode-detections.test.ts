import { describe, expect, it } from 'vitest';
import { decodeDetections } from './decode-detections.js';

describe('decodeDetections', () => {
  it('thresholds, scales normalised corners to input pixels and suppresses duplicates', () => {
    const scores = new Float32Array([0.1, 0.9, 0.2, 0.8, 0.5, 0.5, 0.05, 0.95]);
    const boxes = new Float32Array([
      0.1,
      0.1,
      0.3,
      0.4, // face A
      0.11,
      0.1,
      0.31,
      0.41, // duplicate of A, lower score
      0.5,
      0.5,
      0.6,
      0.6, // below threshold
      0.7,
      0.2,
      0.9,
      0.5, // face B, best score
    ]);
    const found = decodeDetections(scores, boxes, {
      minScore: 0.65,
      iouThreshold: 0.4,
      inputWidth: 320,
      inputHeight: 240,
    });
    expect(found).toHaveLength(2);
    expect(found[0]!.score).toBeCloseTo(0.95, 6);
    expect(found[0]!.box.x).toBeCloseTo(224, 3);
    expect(found[0]!.box.y).toBeCloseTo(48, 3);
    expect(found[0]!.box.width).toBeCloseTo(64, 3);
    expect(found[0]!.box.height).toBeCloseTo(72, 3);
    expect(found[1]!.box.x).toBeCloseTo(32, 3);
  });

  it('drops degenerate boxes', () => {
    const found = decodeDetections(new Float32Array([0, 1]), new Float32Array([0.5, 0.5, 0.4, 0.6]), {
      minScore: 0.5,
      iouThreshold: 0.4,
      inputWidth: 320,
      inputHeight: 240,
    });
    expect(found).toEqual([]);
  });
});
