import { describe, expect, it } from 'vitest';
import { iou, nonMaxSuppression } from './nms.js';

describe('iou', () => {
  it('is 1/7 for two unit squares overlapping by a quarter', () => {
    expect(iou({ x: 0, y: 0, width: 2, height: 2 }, { x: 1, y: 1, width: 2, height: 2 })).toBeCloseTo(
      1 / 7,
      9,
    );
  });
  it('is 0 for disjoint boxes', () => {
    expect(iou({ x: 0, y: 0, width: 1, height: 1 }, { x: 5, y: 5, width: 1, height: 1 })).toBe(0);
  });
});

describe('nonMaxSuppression', () => {
  it('keeps the best of overlapping boxes and every separate face', () => {
    const kept = nonMaxSuppression(
      [
        { box: { x: 0, y: 0, width: 10, height: 10 }, score: 0.8 },
        { box: { x: 1, y: 1, width: 10, height: 10 }, score: 0.95 },
        { box: { x: 50, y: 50, width: 10, height: 10 }, score: 0.7 },
      ],
      0.4,
    );
    expect(kept.map((k) => k.score)).toEqual([0.95, 0.7]);
  });
  it('keeps overlapping boxes under the IoU threshold', () => {
    const kept = nonMaxSuppression(
      [
        { box: { x: 0, y: 0, width: 2, height: 2 }, score: 0.9 },
        { box: { x: 1, y: 1, width: 2, height: 2 }, score: 0.8 },
      ],
      0.4,
    );
    expect(kept).toHaveLength(2);
  });
});
