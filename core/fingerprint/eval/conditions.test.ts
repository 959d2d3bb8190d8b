import { describe, expect, it } from 'vitest';
import { applyCondition, conditionName, rotateImage, ROBUST_CONDITIONS, scaleImage } from './conditions.js';

const ramp = (width: number, height: number) => ({
  width,
  height,
  data: Uint8Array.from({ length: width * height }, (_, i) => (i % width) * 10 + ((i / width) | 0)),
});

describe('robust conditions', () => {
  it('are five grid shifts, two scales and two turns, named for the tables', () => {
    expect(ROBUST_CONDITIONS.map(conditionName)).toEqual([
      'shift 0,0',
      'shift 3,5',
      'shift 6,2',
      'shift 1,7',
      'shift 5,4',
      'scale 0.88',
      'scale 1.14',
      'turn +15',
      'turn -15',
    ]);
  });

  it('scale an image by the factor, keeping a linear ramp linear', () => {
    const image = ramp(50, 40);
    const small = scaleImage(image, 0.88);
    expect([small.width, small.height]).toEqual([44, 35]);
    // Pixel centres map back to (x + 0.5) / 0.88 - 0.5 in the source, where the ramp is 10 per column.
    const sx = 20.5 / 0.88 - 0.5;
    expect(small.data[20]).toBe(Math.round(sx * 10 + (0.5 / 0.88 - 0.5)));
    expect(applyCondition({ kind: 'scale', factor: 1.14 }, image).width).toBe(57);
  });

  it('turn an image about its centre onto a canvas that holds it, filling the corners with the background', () => {
    const image = { width: 4, height: 2, data: Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]) };
    const quarter = rotateImage(image, Math.PI / 2);
    expect([quarter.width, quarter.height]).toEqual([2, 4]);
    // Clockwise on screen: the source's bottom row becomes the left column, read top to bottom.
    expect(Array.from(quarter.data)).toEqual([5, 1, 6, 2, 7, 3, 8, 4]);
    const turned = rotateImage({ width: 20, height: 20, data: new Uint8Array(400).fill(200) }, Math.PI / 12);
    expect(turned.width).toBe(25);
    expect(turned.data[0]).toBe(200);
  });

  it('leave the image itself for a zero shift', () => {
    const image = ramp(3, 3);
    expect(applyCondition({ kind: 'shift', dx: 0, dy: 0 }, image)).toBe(image);
    expect(applyCondition({ kind: 'shift', dx: 1, dy: 0 }, image).width).toBe(4);
  });
});
