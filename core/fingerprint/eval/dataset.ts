import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import type { GrayImage } from '../types.js';

/** One impression of one finger in an FVC-style folder. */
export interface Impression {
  finger: string;
  impression: number;
  image: GrayImage;
}

/** Load every `FINGER_IMPRESSION.<image>` file of a folder as grey images (sharp decodes TIFF, PNG, BMP...). */
export async function loadSet(dir: string): Promise<Impression[]> {
  const files = (await readdir(dir)).filter((f) => /^\w+_\d+\.(tif|tiff|png|bmp|jpg|jpeg)$/i.test(f)).sort();
  const out: Impression[] = [];
  for (const file of files) {
    const [finger, rest] = basename(file).split('_') as [string, string];
    const { data, info } = await sharp(join(dir, file))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    out.push({
      finger,
      impression: Number.parseInt(rest, 10),
      image: {
        width: info.width,
        height: info.height,
        data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height),
      },
    });
  }
  return out;
}

/**
 * The same image moved `dx` pixels right and `dy` down inside a canvas that much larger, the new left columns and top
 * rows repeating the edge pixels. The print is unchanged, only its phase against the extractor's 8-pixel block grid
 * moves: evaluating at a few such shifts shows how much of a figure is luck of the grid.
 */
export function shiftImage(image: GrayImage, dx: number, dy: number): GrayImage {
  const width = image.width + dx;
  const height = image.height + dy;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = Math.max(0, y - dy) * image.width;
    for (let x = 0; x < width; x++) data[y * width + x] = image.data[row + Math.max(0, x - dx)]!;
  }
  return { width, height, data };
}
