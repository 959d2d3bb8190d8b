import fs from 'node:fs';
import sharp from 'sharp';
import { packageFile } from '../assets/assets.js';
import { createPrng } from '../math/prng.js';

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

const PAGE_WORDS = (
  'account balance bank branch card contract customer date holder mobile number payment reference statement ' +
  'terms transfer address signature subscriber period amount due 2026 service charges total'
).split(' ');

/**
 * A deterministic A4 page of print without any MRZ (a letter or a statement handed over instead of an ID): rows of
 * words across the page, `mono` in monospace capitals as a typed form (fixed pitch, like an MRZ's print).
 */
export async function printedPage(width: number, mono = false): Promise<Buffer> {
  const height = Math.round(width * 1.414);
  const size = Math.round(width / 70);
  const random = createPrng(7);
  const rows: string[] = [];
  for (let y = size * 4; y < height - size * 3; y += size * (random.next() < 0.15 ? 2.8 : 1.5)) {
    let text = '';
    while (text.length < (width / size) * 1.5) text += `${PAGE_WORDS[random.int(PAGE_WORDS.length)]!} `;
    if (mono) text = text.toUpperCase();
    rows.push(`<text x="${size * 2}" y="${Math.round(y)}">${text.trim()}</text>`);
  }
  const font = mono ? 'DejaVu Sans Mono' : 'DejaVu Serif';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#fbfaf5"/>
    <g font-family="${font}" font-size="${size}" fill="#222">${rows.join('')}</g></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
