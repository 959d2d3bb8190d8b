import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { decodeBmp, looksLikeBmp } from '../../imaging/bmp.js';
import { rgbToGray } from '../../imaging/decode.js';
import type { GrayImage } from '../types.js';

/** One impression of one finger in an FVC-style folder. */
export interface Impression {
  finger: string;
  impression: number;
  image: GrayImage;
}

/** Image files named `FINGER_IMPRESSION.<ext>`; FINGER may hold letters (FCJ2020's `101f4_1.bmp`). */
const IMAGE_FILE = /^\w+_\d+\.(tif|tiff|png|bmp|jpg|jpeg)$/i;

/** Decode one file to grey: BMP with the project's own decoder (sharp has no BMP loader), the rest with sharp. */
async function readGray(file: string): Promise<GrayImage> {
  const bytes = await readFile(file);
  if (looksLikeBmp(bytes)) {
    const raster = decodeBmp(bytes, file, 40_000_000);
    return {
      width: raster.width,
      height: raster.height,
      data: rgbToGray(raster.data, raster.width, raster.height),
    };
  }
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height),
  };
}

/**
 * Load every `FINGER_IMPRESSION.<image>` file of a folder as grey images, any number of impressions per finger. The
 * finger is the name before the last `_`: same-finger pairs are genuine.
 */
export async function loadSet(dir: string): Promise<Impression[]> {
  const files = (await readdir(dir)).filter((f) => IMAGE_FILE.test(f)).sort();
  const out: Impression[] = [];
  for (const file of files) {
    const name = basename(file);
    const cut = name.lastIndexOf('_');
    out.push({
      finger: name.slice(0, cut),
      impression: Number.parseInt(name.slice(cut + 1), 10),
      image: await readGray(join(dir, file)),
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
