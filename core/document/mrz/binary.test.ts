import { describe, expect, it } from 'vitest';
import { closeRows, openColumns, openRows, transpose } from './binary.js';
import type { Raster } from './morphology.js';

const row = (pattern: string): Raster => ({
  width: pattern.length,
  height: 1,
  data: Uint8Array.from(pattern, (c) => (c === '#' ? 255 : 0)),
});
const text = (mask: Raster): string => Array.from(mask.data, (v) => (v ? '#' : '.')).join('');

describe('binary run morphology', () => {
  it('closes gaps shorter than the segment between ink, never at the ends', () => {
    expect(text(closeRows(row('..##...##....##..'), 4))).toBe('..#######....##..');
    expect(text(closeRows(row('..##...##....##..'), 5))).toBe('..#############..');
  });

  it('opens away runs shorter than the segment, keeping longer runs whole', () => {
    expect(text(openRows(row('#..###.##....#####'), 3))).toBe('...###.......#####');
  });

  it('opens columns like rows of the transposed mask', () => {
    const mask = transpose(row('##.####.#'));
    expect([mask.width, mask.height]).toEqual([1, 9]);
    expect(text(openColumns(mask, 3))).toBe('...####..');
    expect(text(transpose(transpose(row('#.##.'))))).toBe('#.##.');
  });
});
