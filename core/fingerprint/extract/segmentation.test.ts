import { describe, expect, it } from 'vitest';
import type { GrayImage } from '../types.js';
import { BLOCK } from './block-grid.js';
import { estimateOrientation } from './orientation.js';
import { toWorkingResolution } from './resample.js';
import { segment } from './segmentation.js';
import { renderRidges } from './test-patterns.js';

/** Ridges in the central 160 px of a 240 px image, the rest `background(x, y)`. */
function printOn(background: (x: number, y: number) => number): GrayImage {
  const size = 240;
  const ridges = renderRidges(size, 9, 0.5);
  const data = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const inside = x >= 40 && x < 200 && y >= 40 && y < 200;
      data[y * size + x] = inside ? ridges.data[y * size + x]! : background(x, y);
    }
  }
  return { width: size, height: size, data };
}

/** Foreground blocks along the print's outermost ring of blocks (columns and rows 5 and 24). */
function ringBlocks(image: GrayImage): number {
  const img = toWorkingResolution(image, 500);
  const seg = segment(img, estimateOrientation(img).energy);
  let on = 0;
  for (let b = 5; b <= 24; b++) {
    for (const [bx, by] of [
      [b, 5],
      [b, 24],
      [5, b],
      [24, b],
    ])
      on += seg.mask[by! * seg.cols + bx!]!;
  }
  expect(seg.cols).toBe(240 / BLOCK);
  return on;
}

describe('segment', () => {
  it('keeps the rim of a print on a smooth sensor background, whose grey levels still vary', () => {
    // A background of 180 with every other pixel 181: smooth to the eye, variance 0.25 per block.
    expect(ringBlocks(printOn((x, y) => 180 + ((x + y) % 2)))).toBeGreaterThan(60);
  });

  it('drops the blocks touching padding of a single grey level, where the print was cut', () => {
    expect(ringBlocks(printOn(() => 180))).toBe(0);
  });
});
