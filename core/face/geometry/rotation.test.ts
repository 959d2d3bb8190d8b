import { describe, expect, it } from 'vitest';
import { unrotateBox, unrotatePoint, unrotateVector } from './rotation.js';

// Source image 100 wide, 50 high; the point (10, 5) lands at (45, 10) after 90 cw, (90, 45) after 180, (5, 90) after 270.
describe('unrotatePoint', () => {
  it('undoes each quarter turn', () => {
    expect(unrotatePoint([45, 10], 90, 100, 50)).toEqual([10, 5]);
    expect(unrotatePoint([90, 45], 180, 100, 50)).toEqual([10, 5]);
    expect(unrotatePoint([5, 90], 270, 100, 50)).toEqual([10, 5]);
    expect(unrotatePoint([10, 5], 0, 100, 50)).toEqual([10, 5]);
  });
});

describe('unrotateBox', () => {
  it('maps a box of the 90-degree image back to an axis-aligned box', () => {
    // In the 90 cw image (50 wide, 100 high) the box x 30..40, y 10..30 came from x 10..30, y 10..20.
    expect(unrotateBox({ x: 30, y: 10, width: 10, height: 20 }, 90, 100, 50)).toEqual({
      x: 10,
      y: 10,
      width: 20,
      height: 10,
    });
  });
});

describe('unrotateVector', () => {
  it('is the linear part of unrotatePoint for every quarter turn', () => {
    for (const r of [0, 90, 180, 270] as const) {
      const o = unrotatePoint([0, 0], r, 100, 50);
      const p = unrotatePoint([3, 7], r, 100, 50);
      expect(unrotateVector([3, 7], r)).toEqual([p[0] - o[0], p[1] - o[1]]);
    }
  });
});
