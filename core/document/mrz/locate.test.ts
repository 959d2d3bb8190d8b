import { describe, expect, it } from 'vitest';
import { groupMrzBands } from './groups.js';
import { analyseLines, inkMask, type LineBand } from './locate.js';

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
    const width = 720;
    const height = 300;
    const data = new Uint8Array(width * height).fill(230);
    // Two rows of "characters": 6-px strokes every 15 px, 18 px tall, like an MRZ at the working scale.
    for (const top of [200, 240]) {
      for (let x = 40; x < 680; x += 15) {
        for (let y = top; y < top + 18; y++) for (let dx = 0; dx < 6; dx++) data[y * width + x + dx] = 30;
      }
    }
    const { bands, skew } = analyseLines(inkMask({ width, height, data }, 15), 15, width);
    expect(bands.length).toBe(2);
    expect(bands[0]!.width).toBeGreaterThan(600);
    expect(bands[0]!.regularity).toBeGreaterThan(0.9);
    expect(Math.abs(skew)).toBeLessThan(0.02);
    expect(groupMrzBands(bands)[0]?.length).toBe(2);
  });

  it('finds the lines of a washed-out page, whose print is only 25 grey levels darker than its paper', () => {
    const width = 720;
    const height = 300;
    const data = new Uint8Array(width * height).fill(165);
    for (const top of [200, 240]) {
      for (let x = 40; x < 680; x += 15) {
        for (let y = top; y < top + 18; y++) for (let dx = 0; dx < 6; dx++) data[y * width + x + dx] = 140;
      }
    }
    const mask = inkMask({ width, height, data }, 15);
    expect(mask.data[210 * width + 42]).toBe(255);
    expect(mask.data[100 * width + 300]).toBe(0);
    expect(analyseLines(mask, 15, width).bands.length).toBe(2);
  });
});
