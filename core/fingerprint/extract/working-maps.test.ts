import { describe, expect, it } from 'vitest';
import { renderRidges } from './test-patterns.js';
import { enlargement, readingMaps, workingMaps } from './working-maps.js';

describe('enlargement', () => {
  it('enlarges fine ridges towards a 10.4 px period and leaves wide ones as they are', () => {
    const fine = workingMaps(renderRidges(200, 7, 0.4), 500);
    expect(enlargement(fine)).toBeGreaterThan(1.25);
    expect(enlargement(fine)).toBeLessThanOrEqual(1.5);
    expect(enlargement(workingMaps(renderRidges(200, 11, 0.4), 500))).toBe(1);
  });

  it('keeps the enlarged image within the pixels of a 640 x 480 print', () => {
    expect(enlargement(workingMaps(renderRidges(500, 7, 0.4), 500))).toBeCloseTo(
      Math.sqrt((640 * 480) / 500 ** 2),
      5,
    );
    expect(enlargement(workingMaps(renderRidges(600, 7, 0.4), 500))).toBe(1);
  });

  it('reads an enlarged print on maps of the enlarged size, with the period in its pixels', () => {
    const image = renderRidges(200, 8, 0.4);
    const maps = workingMaps(image, 500);
    const read = readingMaps(image, 500, maps, 1.25);
    expect([read.img.width, read.img.height]).toEqual([250, 250]);
    const periods = [...read.period].sort((a, b) => a - b);
    expect(periods[periods.length >> 1]).toBeCloseTo(10, 0);
    expect(readingMaps(image, 500, maps, 1)).toBe(maps);
  });
});
