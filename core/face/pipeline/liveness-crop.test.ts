import { describe, expect, it } from 'vitest';
import { livenessCrop } from './liveness.js';

describe('livenessCrop', () => {
  it('uses the context crop when it fits and pads tight face crops by repeating the border', () => {
    // A 40 px face in a 400x300 photo: the 2.7x square (108 px) fits, no padding.
    expect(livenessCrop({ x: 180, y: 130, width: 40, height: 40 }, 400, 300, 2.7, 0.3)).toEqual({
      rect: { x: 146, y: 96, width: 108, height: 108 },
      pad: 0,
    });
    // A face filling a 162x162 crop: centred square of the whole image plus 30% (49 px) of border on each side.
    expect(livenessCrop({ x: 30, y: 30, width: 100, height: 100 }, 162, 162, 2.7, 0.3)).toEqual({
      rect: { x: 0, y: 0, width: 260, height: 260 },
      pad: 49,
    });
    // No face found: treated as a tight crop.
    expect(livenessCrop(undefined, 200, 100, 2.7, 0.3).rect).toEqual({
      x: 50,
      y: 0,
      width: 160,
      height: 160,
    });
  });
});
