import { describe, expect, it } from 'vitest';
import { GreyPyramid } from './grey.js';
import { refineLine } from './refine.js';
import { bendAt, flipLayout, layoutGroup } from './strips.js';

/** Two lines of 30 "characters" (blocks 10×20 every 16 px from x = 100, rows 200–219 and 240–259) over a rule. */
function page(): GreyPyramid {
  const width = 800;
  const height = 400;
  const data = new Uint8Array(width * height).fill(235);
  const dark = (x: number, y: number): void => {
    data[y * width + x] = 30;
  };
  for (const top of [200, 240])
    for (let k = 0; k < 30; k++)
      for (let y = top; y < top + 20; y++) for (let x = 100 + k * 16; x < 110 + k * 16; x++) dark(x, y);
  // A rule under the zone, joined to nothing.
  for (let x = 60; x <= 640; x++) dark(x, 290);
  return new GreyPyramid({ width, height, data });
}

/**
 * A line of 40 "characters" (blocks 10×20 every 16 px from x = 100, rows 200–219; ink 30 on paper 235 as printed)
 * on an 800×400 page, each pixel's grey given by `grey` from whether it is a character's.
 */
function fortyCharacters(grey: (x: number, ink: boolean, y: number) => number): GreyPyramid {
  const width = 800;
  const height = 400;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const k = Math.floor((x - 100) / 16);
      data[y * width + x] = grey(x, y >= 200 && y < 220 && k >= 0 && k < 40 && (x - 100) % 16 < 10, y);
    }
  return new GreyPyramid({ width, height, data });
}

/** The line fitted from the first of the forty characters (x = 100) to the last (x = 733). */
function expectFortyCharacters(line: { cx: number; length: number }): void {
  expect(line.cx - line.length / 2).toBeLessThan(105);
  expect(line.cx + line.length / 2).toBeGreaterThan(725);
  expect(line.cx + line.length / 2).toBeLessThan(745);
}

describe('line fit at full resolution', () => {
  it('finds the text band and the ends of a line from a rough, short estimate', () => {
    const line = refineLine(page(), { cx: 300, cy: 205, angle: 0.01, length: 360, height: 14 });
    expect(line.cy).toBeCloseTo(209.5, 0);
    expect(line.height).toBeGreaterThanOrEqual(19);
    expect(line.height).toBeLessThanOrEqual(22);
    // Characters from x = 100 to 573.
    expect(line.cx - line.length / 2).toBeGreaterThan(95);
    expect(line.cx + line.length / 2).toBeLessThan(580);
    expect(line.length).toBeGreaterThan(460);
    expect(Math.abs(line.angle)).toBeLessThan(0.005);
  });

  it('follows the curve of a line on a bent page, and leaves a straight line straight', () => {
    // The forty characters' middles sink along a parabola: 9 px (under half a text height) lower mid-line than at the
    // ends.
    const sink = (x: number): number => 9 * (1 - ((x - 417) / 317) ** 2);
    const bentPage = fortyCharacters((x, _, y) => {
      const k = Math.floor((x - 100) / 16);
      const top = 200 + Math.round(sink(100 + k * 16 + 5));
      return y >= top && y < top + 20 && k >= 0 && k < 40 && (x - 100) % 16 < 10 ? 30 : 235;
    });
    const line = refineLine(bentPage, { cx: 417, cy: 214, angle: 0, length: 640, height: 20 });
    expect(line.bend).toBeDefined();
    // The text's middle found within two pixels of where it is, at the ends and mid-line.
    for (const x of [110, 417, 725])
      expect(line.cy + bendAt(line, x, line.cy)).toBeCloseTo(210 + sink(x), -0.5);
    // Turned half round (its normal pointing up), the line still finds its text in the same place.
    const [turned] = flipLayout([line]);
    for (const x of [110, 725])
      expect(bendAt(turned!, x, turned!.cy)).toBeCloseTo(-bendAt(line, x, line.cy), 6);

    const straight = refineLine(
      fortyCharacters((_, ink) => (ink ? 30 : 235)),
      { cx: 417, cy: 210, angle: 0, length: 640, height: 20 },
    );
    expect(straight.bend).toBeUndefined();
  });

  it('follows a line to its end where glare leaves its characters a tenth darker than the paper', () => {
    // Glare washes the characters out from the 10th to the 25th and beyond: ink 225 on paper 250.
    const page = fortyCharacters((x, ink) => {
      const glare = Math.min(1, Math.max(0, (x - 260) / 240));
      return Math.round((ink ? 30 : 235) * (1 - glare) + (ink ? 225 : 250) * glare);
    });
    expectFortyCharacters(refineLine(page, { cx: 220, cy: 210, angle: 0, length: 240, height: 20 }));
  });

  it('follows a line to its end under a stamp printed across it, lighter than its characters', () => {
    // A stamp's letter strokes (ink 150, taller than the line) cross and touch the 25th character onwards,
    // joining them into pieces several lines tall.
    const page = fortyCharacters((x, ink, y) => {
      const stamp = x >= 480 && y >= 150 && y < 280 && (x - 480) % 40 < 14;
      return ink ? 30 : stamp ? 150 : 235;
    });
    expectFortyCharacters(refineLine(page, { cx: 280, cy: 210, angle: 0, length: 360, height: 20 }));
  });

  it('lays out a group top to bottom, stretched to its extent, and turns it half round', () => {
    const lines = layoutGroup([
      { cx: 300, cy: 260, angle: 0, length: 400, height: 20 },
      { cx: 320, cy: 220, angle: 0, length: 360, height: 20 },
    ]);
    expect(lines.map((l) => l.cy)).toEqual([220, 260]);
    expect(lines.every((l) => l.length === 400 && l.cx === 300)).toBe(true);
    const flipped = flipLayout(lines);
    expect(flipped.map((l) => l.cy)).toEqual([260, 220]);
    expect(flipped[0]!.angle).toBeCloseTo(Math.PI, 6);
  });
});
