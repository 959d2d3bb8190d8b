import { describe, expect, it } from 'vitest';
import type { Minutia } from '../types.js';
import { mergeMinutiae } from './merge.js';

const at = (x: number, y: number, angle: number, type: Minutia['type'] = 'ending'): Minutia => ({
  x,
  y,
  angle,
  type,
  quality: 50,
});

describe('mergeMinutiae', () => {
  it('keeps one minutia, at the mean position and direction, for readings that agree', () => {
    const merged = mergeMinutiae([[at(100, 100, 0.2)], [at(104, 102, 0.4)]]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.x).toBe(102);
    expect(merged[0]!.y).toBe(101);
    expect(merged[0]!.angle).toBeCloseTo(0.3, 5);
  });

  it('averages directions across the zero angle', () => {
    const merged = mergeMinutiae([[at(50, 50, 2 * Math.PI - 0.1)], [at(50, 50, 0.1)]]);
    expect(merged).toHaveLength(1);
    const a = merged[0]!.angle;
    expect(Math.min(a, 2 * Math.PI - a)).toBeCloseTo(0, 5);
  });

  it('keeps minutiae that are too far apart or point elsewhere as separate hypotheses', () => {
    const merged = mergeMinutiae([
      [at(100, 100, 0), at(200, 200, 1)],
      [at(100, 120, 0), at(201, 200, 1 + Math.PI)],
    ]);
    expect(merged).toHaveLength(4);
  });

  it('pairs each minutia of a reading with at most one kept minutia, the nearest', () => {
    const merged = mergeMinutiae([
      [at(100, 100, 0), at(110, 100, 0)],
      [at(109, 100, 0), at(108, 100, 0)],
    ]);
    // 109 joins the minutia at 110 (the nearest; their mean rounds to 110). 108 is 8 px from the one at 100, not
    // closer than 8, so it stands alone.
    expect(merged.map((m) => m.x).sort((p, q) => p - q)).toEqual([100, 108, 110]);
  });

  it('keeps the first reading type and quality', () => {
    const merged = mergeMinutiae([[{ ...at(10, 10, 1, 'bifurcation'), quality: 77 }], [at(11, 10, 1)]]);
    expect(merged[0]!.type).toBe('bifurcation');
    expect(merged[0]!.quality).toBe(77);
  });
});
