import { describe, expect, it } from 'vitest';
import { shiftImage } from './dataset.js';

describe('shiftImage', () => {
  it('moves the print right and down and repeats the edge pixels into the new margin', () => {
    const image = { width: 3, height: 2, data: Uint8Array.from([1, 2, 3, 4, 5, 6]) };
    const shifted = shiftImage(image, 2, 1);
    expect(shifted.width).toBe(5);
    expect(shifted.height).toBe(3);
    expect(Array.from(shifted.data)).toEqual([1, 1, 1, 2, 3, 1, 1, 1, 2, 3, 4, 4, 4, 5, 6]);
  });

  it('leaves the image as it is for a zero shift', () => {
    const image = { width: 2, height: 2, data: Uint8Array.from([9, 8, 7, 6]) };
    expect(shiftImage(image, 0, 0)).toEqual(image);
  });
});
