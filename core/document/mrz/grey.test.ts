import { describe, expect, it } from 'vitest';
import { softenBilevel } from './grey.js';
import type { Raster } from './morphology.js';

/** A 9×9 raster of `paper` with a 3-pixel black bar across its middle. */
function bar(paper: number): Raster {
  const data = new Uint8Array(81).fill(paper);
  data.fill(0, 27, 54);
  return { width: 9, height: 9, data };
}

describe('softenBilevel', () => {
  it('softens a black-and-white raster: its edges turn grey, its ink stays dark', () => {
    const soft = softenBilevel(bar(255));
    const column = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((y) => soft.data[y * 9 + 4]!);
    expect(column[4]).toBeLessThan(40);
    expect(column[0]).toBeGreaterThan(230);
    expect(column[2]! > 40 && column[2]! < 230).toBe(true);
    expect(column[6]! > 40 && column[6]! < 230).toBe(true);
  });

  it('leaves a raster with more than two grey levels, or one level only, as it is', () => {
    const grey = bar(255);
    grey.data[0] = 128;
    expect(softenBilevel(grey)).toBe(grey);
    const blank: Raster = { width: 4, height: 4, data: new Uint8Array(16).fill(255) };
    expect(softenBilevel(blank)).toBe(blank);
  });
});
