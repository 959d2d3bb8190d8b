import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeGrayBmp, encodeGrayPng } from '../synthetic/index.js';
import { loadSet, shiftImage } from './dataset.js';

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

describe('loadSet', () => {
  it('reads BMP and PNG files, fingers named with letters, any number of impressions', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fp-set-'));
    try {
      const image = (v: number) => ({ width: 5, height: 3, data: new Uint8Array(15).fill(v) });
      await writeFile(join(dir, '101f4_1.bmp'), encodeGrayBmp(image(10)));
      await writeFile(join(dir, '101f4_2.bmp'), encodeGrayBmp(image(20)));
      await writeFile(join(dir, '101f4_3.png'), encodeGrayPng(image(30)));
      await writeFile(join(dir, '102f1_1.bmp'), encodeGrayBmp(image(40)));
      await writeFile(join(dir, 'README.md'), 'not an image');
      const set = await loadSet(dir);
      expect(set.map((s) => [s.finger, s.impression, s.image.data[7]])).toEqual([
        ['101f4', 1, 10],
        ['101f4', 2, 20],
        ['101f4', 3, 30],
        ['102f1', 1, 40],
      ]);
      expect(set[0]!.image).toMatchObject({ width: 5, height: 3 });
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});
