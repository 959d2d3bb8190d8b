import { describe, expect, it } from 'vitest';
import { GreyPyramid } from './grey.js';
import { fitToGroup } from './group-fit.js';

/** An 800×400 page with ink (30 on paper 235) in rows [from, to) wherever `column(x - 100)` holds, for x in 100–699. */
function page(...inks: [from: number, to: number, column: (x: number) => boolean][]): GreyPyramid {
  const width = 800;
  const data = new Uint8Array(width * 400).fill(235);
  for (const [from, to, column] of inks)
    for (let y = from; y < to; y++)
      for (let x = 100; x < 700; x++) if (column(x - 100)) data[y * width + x] = 30;
  return new GreyPyramid({ width, height: 400, data });
}

const blocks = (x: number): boolean => x % 16 < 10;

/**
 * Two lines 14 px tall, 22 px apart: the first of blocks 10 px wide every 16 px (rows 200–213), the second of
 * bars 2 px wide every 4 px (rows 222–235), whose rows cross much more ink.
 */
const twoLines = (): GreyPyramid => page([200, 214, blocks], [222, 236, (x) => x % 4 < 2]);

/** A first line fitted to its own text: rows 200–213 of each page. */
const first = { cx: 400, cy: 206.5, angle: 0, length: 600, height: 14 };

describe('a group of lines fitted together', () => {
  it('keeps a line on its own text when the group height, too tall, would refit it onto its neighbour', () => {
    // The second line's height measured far too tall (joined to a shadow): the first is refitted at that height.
    const second = { cx: 400, cy: 228.5, angle: 0, length: 600, height: 24 };
    const [a, b] = fitToGroup(twoLines(), [first, second]);
    expect(a!.cy).toBeCloseTo(206.5, 0);
    expect(b!.cy).toBeCloseTo(228.5, 0);
  });

  it('fits a line whose band took in its neighbour to its own text, beyond the neighbour', () => {
    // The second line's band measured from the first line's top to its own bottom (rows 200–235).
    const second = { cx: 400, cy: 217.5, angle: 0, length: 600, height: 36 };
    const [a, b] = fitToGroup(twoLines(), [first, second]);
    expect(a!.cy).toBeCloseTo(206.5, 0);
    expect(b!.cy).toBeCloseTo(228.5, 0);
    expect(b!.height).toBeLessThan(18);
  });

  it('keeps a line on its own text when refitted at the group height it takes in a pattern beneath it', () => {
    // Blocks 14 px tall (rows 200–213) over a hatched pattern (rows 214–229), and a second line 20 px tall below.
    const hatched = page([200, 214, blocks], [214, 230, (x) => x % 16 === 3], [236, 256, blocks]);
    const second = { cx: 400, cy: 245.5, angle: 0, length: 600, height: 20 };
    const [a] = fitToGroup(hatched, [first, second]);
    expect(a!.cy).toBeCloseTo(206.5, 0);
    expect(a!.height).toBeLessThan(18);
  });

  it('fits a line whose band took in a frame beyond it at the other line height, to its own text', () => {
    // The second line (rows 236–249) sits on a frame drawn round the zone, sparse ink in rows 250–262: its band
    // measured both. Refitted at that height, the first line measures its own 14 px again.
    const framed = page([200, 214, blocks], [236, 250, blocks], [250, 263, (x) => x % 64 === 3]);
    const second = { cx: 400, cy: 249, angle: 0, length: 600, height: 27 };
    const [a, b] = fitToGroup(framed, [first, second]);
    expect(a!.cy).toBeCloseTo(206.5, 0);
    expect(b!.cy).toBeCloseTo(242.5, 0);
    expect(b!.height).toBeLessThan(18);
  });
});
