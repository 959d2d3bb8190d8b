import { describe, expect, it } from 'vitest';
import { components } from './components.js';

/** A mask from rows of text: `#` ink, anything else paper. */
function maskOf(rows: string[]): { width: number; height: number; data: Uint8Array } {
  const width = rows[0]!.length;
  const data = new Uint8Array(width * rows.length);
  rows.forEach((row, y) => {
    for (let x = 0; x < width; x++) data[y * width + x] = row[x] === '#' ? 255 : 0;
  });
  return { width, height: rows.length, data };
}

describe('components', () => {
  it('joins pieces that meet further down (a U) and keeps diagonal neighbours apart', () => {
    const bands = components(maskOf(['#...#..#', '#...#.#.', '#####...']));
    expect(bands).toHaveLength(3);
    const [u, right, low] = bands;
    expect(u).toMatchObject({ x: 0, y: 0, width: 5, height: 3 });
    // 4-neighbour: the two pixels touching only at a corner are two components, in the order of their first pixel.
    expect(right).toMatchObject({ x: 7, y: 0, width: 1, height: 1, cx: 7, cy: 0 });
    expect(low).toMatchObject({ x: 6, y: 1, width: 1, height: 1, cx: 6, cy: 1 });
    // The U's ink: 2 + 2 arm pixels above a bar of 5.
    expect(u!.cx).toBeCloseTo((0 + 4 + 0 + 4 + 0 + 1 + 2 + 3 + 4) / 9, 12);
    expect(u!.cy).toBeCloseTo((0 + 0 + 1 + 1 + 2 * 5) / 9, 12);
  });

  it('gives a bar its direction, length and thickness from its moments', () => {
    const rows = Array.from({ length: 9 }, (_, y) =>
      y >= 3 && y <= 5 ? '.' + '#'.repeat(40) + '.' : '.'.repeat(42),
    );
    const [bar] = components(maskOf(rows));
    expect(bar).toMatchObject({ x: 1, y: 3, width: 40, height: 3, cx: 20.5, cy: 4 });
    expect(bar!.angle).toBeCloseTo(0, 12);
    // A uniform bar's second moments: length² / 12 along, thickness² / 12 across (a pixel's own width added).
    expect(bar!.length).toBeCloseTo(Math.sqrt(40 * 40 - 1), 9);
    expect(bar!.thickness).toBeCloseTo(Math.sqrt(3 * 3 - 1) + 1, 9);
  });

  it('follows a diagonal staircase as one piece at 45 degrees', () => {
    const rows = Array.from({ length: 20 }, (_, y) => '.'.repeat(y) + '##' + '.'.repeat(20 - y));
    const bands = components(maskOf(rows));
    expect(bands).toHaveLength(1);
    expect(bands[0]!.angle).toBeCloseTo(Math.PI / 4, 1);
  });

  it('answers nothing for an empty mask', () => {
    expect(components(maskOf(['....', '....']))).toEqual([]);
  });
});
