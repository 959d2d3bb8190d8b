import fs from 'node:fs';
import sharp from 'sharp';
import { packageFile } from '../assets/assets.js';

/** A real photo shipped by an npm package (@vladmandic/face-api demo samples 1-6), for tests on a fresh machine. */
export function samplePhotoPath(n: 1 | 2 | 3 | 4 | 5 | 6): string {
  return packageFile('@vladmandic/face-api', `demo/sample${n}.jpg`);
}

/** The bytes of a shipped sample photo. */
export function samplePhoto(n: 1 | 2 | 3 | 4 | 5 | 6): Buffer {
  return fs.readFileSync(samplePhotoPath(n));
}

/** A deterministic textured JPEG of the given size (a real, decodable image). */
export async function texturedJpeg(width: number, height: number, quality = 90): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      raw[o] = (x * 7 + y * 3) & 255;
      raw[o + 1] = (x * y) & 255;
      raw[o + 2] = ((x ^ y) * 5) & 255;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}
