import { describe, expect, it } from 'vitest';
import {
  decodeMask,
  decodePeriods,
  decodeRidgeCounts,
  encodeMask,
  PERIOD_UNKNOWN,
  RIDGES_UNKNOWN,
} from '../template/extra.js';
import { ridgesBetween } from './ridge-count.js';

/** Vertical ridges 3 px wide every 9 px (x % 9 < 3 is ridge), 200 x 60. */
function stripes(): { binary: Uint8Array; width: number } {
  const width = 200;
  const binary = new Uint8Array(width * 60);
  for (let y = 0; y < 60; y++) for (let x = 0; x < width; x++) binary[y * width + x] = x % 9 < 3 ? 1 : 0;
  return { binary, width };
}

describe('ridge counts', () => {
  const everywhere = (): boolean => true;

  it('counts the ridges strictly between two minutiae, not the ones they sit on', () => {
    const { binary, width } = stripes();
    // Minutiae on the ridges at x = 10 and x = 46: the ridges at 18, 27 and 36 lie between them.
    expect(ridgesBetween(binary, width, everywhere, 10, 30, 46, 30)).toBe(3);
    expect(ridgesBetween(binary, width, everywhere, 46, 30, 10, 30)).toBe(3);
    // A slanted segment crosses the same ridges.
    expect(ridgesBetween(binary, width, everywhere, 10, 10, 46, 50)).toBe(3);
    // Neighbours on adjacent ridges: nothing in between.
    expect(ridgesBetween(binary, width, everywhere, 10, 30, 19, 30)).toBe(0);
  });

  it('ignores one-pixel specks in a valley and reports unknown outside the print', () => {
    const { binary, width } = stripes();
    binary[30 * width + 14] = 1;
    expect(ridgesBetween(binary, width, everywhere, 10, 30, 46, 30)).toBe(3);
    expect(ridgesBetween(binary, width, (x) => x < 30, 10, 30, 46, 30)).toBe(RIDGES_UNKNOWN);
  });

  it('travel with the ridge-flow map in the template extra and are read back only when they fit', () => {
    const map = { cols: 2, rows: 2, cells: Uint8Array.from([10, 20, 255, 254]) };
    const counts = Uint8Array.from([1, 2, 3, RIDGES_UNKNOWN, 0, 0, 0, 0]);
    const extra = encodeMask(map, counts);
    expect(decodeMask(extra)).toEqual(map);
    expect(decodeRidgeCounts(extra, 8)).toEqual(counts);
    expect(decodeRidgeCounts(extra, 16)).toBeUndefined();
    expect(decodeRidgeCounts(encodeMask(map), 8)).toBeUndefined();
  });

  it('travel with the ridge-period map too, each part read back where it is', () => {
    const map = { cols: 2, rows: 2, cells: Uint8Array.from([10, 20, 255, 254]) };
    const counts = Uint8Array.from([1, 2, 3, RIDGES_UNKNOWN, 0, 0, 0, 0]);
    const period = Uint8Array.from([92, 95, PERIOD_UNKNOWN, 101]);
    const extra = encodeMask(map, counts, period);
    expect(decodeMask(extra)).toEqual(map);
    expect(decodeRidgeCounts(extra, 8)).toEqual(counts);
    expect(decodePeriods(extra)).toEqual(period);
    // Periods without ridge counts (e.g. a print too large for them), and the older formats without periods.
    const noCounts = encodeMask(map, undefined, period);
    expect(decodeMask(noCounts)).toEqual(map);
    expect(decodePeriods(noCounts)).toEqual(period);
    expect(decodeRidgeCounts(noCounts, 8)).toBeUndefined();
    expect(decodePeriods(encodeMask(map, counts))).toBeUndefined();
    expect(decodePeriods(extra.subarray(0, extra.length - 1))).toBeUndefined();
    expect(() => encodeMask(map, counts, Uint8Array.from([90]))).toThrow();
  });
});
