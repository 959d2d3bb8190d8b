import { describe, expect, it } from 'vitest';
import { groupMrzBands } from './groups.js';
import { analyseLines, inkOfDarkness, strokeDarkness, type LineBand } from './locate.js';
import type { Raster } from './morphology.js';

/** The ink of a grey page, as the zone search thresholds it. */
const inkMask = (gray: Raster, pitch: number): Raster => inkOfDarkness(strokeDarkness(gray, pitch), pitch);

const band = (x: number, y: number, width: number, height: number): LineBand => ({
  x,
  y,
  width,
  height,
  angle: 0,
  cx: x + width / 2,
  cy: y + height / 2,
  length: width,
  thickness: height,
});

const WIDTH = 720;

/** A page 720×300 of grey `paper` with two rows of `ink` "characters" (6-px strokes every 15 px, 18 px tall). */
function twoLines(paper: number, ink: number): Raster {
  const height = 300;
  const data = new Uint8Array(WIDTH * height).fill(paper);
  for (const top of [200, 240]) {
    for (let x = 40; x < 680; x += 15) {
      for (let y = top; y < top + 18; y++) for (let dx = 0; dx < 6; dx++) data[y * WIDTH + x + dx] = ink;
    }
  }
  return { width: WIDTH, height, data };
}

describe('zone search', () => {
  it('groups evenly spaced lines of equal size, the bottom block first', () => {
    const bands = [
      band(40, 50, 300, 12),
      band(40, 300, 600, 20),
      band(42, 335, 598, 20),
      band(40, 370, 600, 20),
    ];
    const [first] = groupMrzBands(bands);
    expect(first?.map((b) => b.y)).toEqual([300, 335, 370]);
  });

  it('groups a line found only in part with its neighbour when one end aligns', () => {
    const [first] = groupMrzBands([band(40, 300, 600, 20), band(40, 335, 330, 20)]);
    expect(first?.length).toBe(2);
    expect(groupMrzBands([band(40, 300, 600, 20), band(200, 335, 330, 20)])).toEqual([]);
  });

  it('does not group lines of very different height or far apart', () => {
    expect(groupMrzBands([band(40, 300, 600, 20), band(40, 330, 600, 6)])).toEqual([]);
    expect(groupMrzBands([band(40, 100, 600, 20), band(40, 400, 600, 20)])).toEqual([]);
  });

  it('finds two dark text bands on a light page and their skew', () => {
    const { bands, skews } = analyseLines(inkMask(twoLines(230, 30), 15), 15, WIDTH);
    expect(bands.length).toBe(2);
    expect(bands[0]!.width).toBeGreaterThan(600);
    expect(bands[0]!.regularity).toBeGreaterThan(0.9);
    expect(skews.length).toBe(1);
    expect(Math.abs(skews[0]!)).toBeLessThan(0.02);
    expect(groupMrzBands(bands)[0]?.length).toBe(2);
  });

  it('finds the lines of a washed-out page, whose print is only 25 grey levels darker than its paper', () => {
    const mask = inkMask(twoLines(165, 140), 15);
    expect(mask.data[210 * WIDTH + 42]).toBe(255);
    expect(mask.data[100 * WIDTH + 300]).toBe(0);
    expect(analyseLines(mask, 15, WIDTH).bands.length).toBe(2);
  });

  it('finds lines whose characters blur into each other along the line, not solid bars or hatching', () => {
    /** A mask with two rows of 18-px-tall marks `wide` px wide every `step` px, joined by a 4-px bar at mid height. */
    const joined = (step: number, wide: number): Raster => {
      const height = 300;
      const data = new Uint8Array(WIDTH * height);
      for (const top of [200, 240]) {
        for (let y = top + 7; y < top + 11; y++) data.fill(255, y * WIDTH + 40, y * WIDTH + 680);
        for (let x = 40; x + wide <= 680; x += step)
          for (let y = top; y < top + 18; y++) data.fill(255, y * WIDTH + x, y * WIDTH + x + wide);
      }
      return { width: WIDTH, height, data };
    };
    // Characters 15 px apart, the gaps between them bridged: no empty column parts them.
    const { bands } = analyseLines(joined(15, 9), 15, WIDTH);
    expect(bands.map((b) => Math.round(b.cy / 10))).toEqual([21, 25]);
    expect(groupMrzBands(bands)[0]?.length).toBe(2);
    // Solid bars, and strokes 4 px apart (hatching, far closer than characters of that height): no line.
    expect(analyseLines(joined(15, 15), 15, WIDTH).bands).toEqual([]);
    expect(analyseLines(joined(4, 2), 15, WIDTH).bands).toEqual([]);
  });

  it('finds lines of heavy print, whose characters touch, by the valleys between them', () => {
    /**
     * A mask with two rows of 44 marks every 15 px, each 11 px wide and touching the next through a 2-px bar: the
     * first `tall` marks 18 px tall (letters), the rest 8 px (fillers, lower than a letter).
     */
    const heavy = (tall: number): Raster => {
      const height = 300;
      const data = new Uint8Array(WIDTH * height);
      for (const top of [200, 240]) {
        for (let y = top + 8; y < top + 10; y++) data.fill(255, y * WIDTH + 40, y * WIDTH + 40 + 44 * 15);
        for (let k = 0; k < 44; k++) {
          const [from, to] = k < tall ? [top, top + 18] : [top + 5, top + 13];
          for (let y = from; y < to; y++)
            data.fill(255, y * WIDTH + 40 + k * 15, y * WIDTH + 40 + k * 15 + 11);
        }
      }
      return { width: WIDTH, height, data };
    };
    // A name line: 14 letters, then fillers lower than the letters and under 70% of their ink.
    const { bands } = analyseLines(heavy(14), 15, WIDTH, true);
    expect(bands.map((b) => Math.round(b.cy / 10))).toEqual([21, 25]);
    expect(groupMrzBands(bands)[0]?.length).toBe(2);
    // Not asked for (the first look), no line.
    expect(analyseLines(heavy(14), 15, WIDTH).bands).toEqual([]);
  });

  it('spaces characters evenly when lone pixels of noise lie in the gaps between them', () => {
    /** Two rows of 44 marks, 7 px wide and 18 tall, every 15 px; a lone pixel somewhere in every fourth gap. */
    const specked = (): Raster => {
      const height = 300;
      const data = new Uint8Array(WIDTH * height);
      for (const top of [200, 240]) {
        for (let k = 0; k < 44; k++) {
          const x = 40 + k * 15;
          for (let y = top; y < top + 18; y++) data.fill(255, y * WIDTH + x, y * WIDTH + x + 7);
          if (k % 4 === 0 && k < 43) data[(top + 5 + (k % 7)) * WIDTH + x + 8 + ((k * 5) % 6)] = 255;
        }
      }
      return { width: WIDTH, height, data };
    };
    const { bands } = analyseLines(specked(), 15, WIDTH);
    expect(bands.map((b) => Math.round(b.cy / 10))).toEqual([21, 25]);
    // Each speck taken for a character would split a step in two, neither of them the pitch.
    for (const b of bands) expect(b.regularity).toBeGreaterThan(0.95);
  });

  it('finds a line whose end touches a narrow dark margin down the page', () => {
    const page = twoLines(230, 30);
    // A strip of table 14 px wide down the page's side, joined to the lines' ends by their closing.
    for (let y = 20; y < 290; y++) for (let x = 681; x < 695; x++) page.data[y * WIDTH + x] = 40;
    const { bands } = analyseLines(inkMask(page, 15), 15, WIDTH);
    expect(bands.filter((b) => b.width > 600).map((b) => Math.round(b.cy / 10))).toEqual([21, 25]);
  });

  it('spaces lines askew by their text height, not their taller box', () => {
    // Two lines 10 px tall, 24 px apart, rising 18 px along their 540 px: boxes 28 px tall.
    const askew = (y: number): LineBand => ({ ...band(180, y, 540, 28), angle: -Math.atan2(18, 540) });
    expect(groupMrzBands([askew(460), askew(484)])[0]?.length).toBe(2);
  });

  it('keeps a line apart from a textured block level with it a few text heights away', () => {
    const page = twoLines(230, 30);
    // Lines from x 200: a picture's corner (hatched, 64 px square) beside the second line, 116 px before it.
    for (let y = 200; y < 260; y++) for (let x = 0; x < 200; x++) page.data[y * WIDTH + x] = 230;
    for (let y = 232; y < 296; y++)
      for (let x = 20; x < 84; x += 7) for (let dx = 0; dx < 3; dx++) page.data[y * WIDTH + x + dx] = 40;
    const { bands } = analyseLines(inkMask(page, 15), 15, WIDTH);
    expect(bands.filter((b) => b.width > 400).map((b) => Math.round(b.cy / 10))).toEqual([21, 25]);
  });

  it('frees a line from a frame drawn round it: its top edge just above the line, its side hanging below', () => {
    const page = twoLines(230, 30);
    // A frame's top edge 2 px thick, 2 px above the second line, and its left side (8 px) down past the line's
    // bottom, joined to the line's first character by the closing: one piece 52 px tall, too tall for a line.
    for (let y = 236; y < 238; y++) for (let x = 30; x < 690; x++) page.data[y * WIDTH + x] = 30;
    for (let y = 236; y < 288; y++) for (let x = 30; x < 38; x++) page.data[y * WIDTH + x] = 30;
    const { bands } = analyseLines(inkMask(page, 15), 15, WIDTH);
    const lines = bands.filter((b) => b.width > 600 && b.height < 30);
    expect(lines.map((b) => Math.round(b.cy / 10))).toEqual([21, 25]);
    expect(groupMrzBands(lines)[0]?.length).toBe(2);
  });

  it("finds print much fainter than the page's other print only in a faint look", () => {
    const page = twoLines(240, 215);
    // Black print higher up the page: the page's threshold is set by it, and the MRZ's faint print falls under it.
    for (const top of [40, 80]) {
      for (let x = 40; x < 680; x += 15) {
        for (let y = top; y < top + 18; y++)
          for (let dx = 0; dx < 6; dx++) page.data[y * WIDTH + x + dx] = 30;
      }
    }
    const darkness = strokeDarkness(page, 15);
    const rows = (ink: 'plain' | 'faint'): number[] =>
      analyseLines(inkOfDarkness(darkness, 15, ink), 15, WIDTH).bands.map((b) => Math.round(b.cy / 10));
    expect(rows('plain')).toEqual([5, 9]);
    expect(rows('faint')).toEqual([5, 9, 21, 25]);
  });
});
