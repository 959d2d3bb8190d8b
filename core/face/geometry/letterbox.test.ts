import { describe, expect, it } from 'vitest';
import { letterbox, unletterboxBox } from './letterbox.js';

describe('letterbox', () => {
  it('fits a portrait image by height and centres it horizontally', () => {
    // 600x800 into 320x240: scale 0.3, 180x240, padded 70 px each side.
    expect(letterbox(600, 800, 320, 240)).toEqual({ scale: 0.3, width: 180, height: 240, padX: 70, padY: 0 });
  });

  it('fits a wide image by width and pads top and bottom', () => {
    const lb = letterbox(1000, 500, 320, 240);
    expect(lb).toEqual({ scale: 0.32, width: 320, height: 160, padX: 0, padY: 40 });
  });

  it('maps boxes back to source pixels', () => {
    const lb = letterbox(600, 800, 320, 240);
    const box = unletterboxBox({ x: 100, y: 30, width: 60, height: 90 }, lb);
    expect(box.x).toBeCloseTo(100, 6);
    expect(box.y).toBeCloseTo(100, 6);
    expect(box.width).toBeCloseTo(200, 6);
    expect(box.height).toBeCloseTo(300, 6);
  });
});
