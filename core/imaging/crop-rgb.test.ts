import { describe, expect, it } from 'vitest';
import type { DecodedImage } from './decode.js';
import { cropRgb } from './crop-rgb.js';

function gradient(width: number, height: number): DecodedImage {
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) rgb.set([x, y, x + y], (y * width + x) * 3);
  return { format: 'png', width, height, rgb };
}

describe('cropRgb', () => {
  it('copies exactly the pixels of the rectangle', () => {
    const crop = cropRgb(gradient(20, 10), { x: 3, y: 4, width: 5, height: 2 });
    expect([crop.width, crop.height]).toEqual([5, 2]);
    expect([...crop.rgb.subarray(0, 3)]).toEqual([3, 4, 7]);
    expect([...crop.rgb.subarray((1 * 5 + 4) * 3, (1 * 5 + 4) * 3 + 3)]).toEqual([7, 5, 12]);
  });

  it('refuses a rectangle reaching outside the image', () => {
    expect(() => cropRgb(gradient(20, 10), { x: 16, y: 0, width: 5, height: 2 })).toThrow(RangeError);
    expect(() => cropRgb(gradient(20, 10), { x: 0, y: -1, width: 5, height: 2 })).toThrow(RangeError);
  });
});
