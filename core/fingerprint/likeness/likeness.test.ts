import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderIdCard } from '../../document/render/index.js';
import { decodeImage, rgbToGray } from '../../imaging/decode.js';
import { samplePhoto } from '../../testing/images.js';
import { scaleImage } from '../eval/conditions.js';
import { createPrng, syntheticFingerprint } from '../synthetic/index.js';
import type { GrayImage } from '../types.js';
import { assessLikeness, LIKENESS_PASS } from './index.js';

async function grey(bytes: Buffer): Promise<GrayImage> {
  const d = await decodeImage(bytes, { field: 'file' });
  return { width: d.width, height: d.height, data: rgbToGray(d.rgb, d.width, d.height) };
}

function drawn(width: number, height: number, value: (x: number, y: number) => number): GrayImage {
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) {
    data[i] = Math.max(0, Math.min(255, Math.round(value(i % width, (i / width) | 0))));
  }
  return { width, height, data };
}

describe('assessLikeness', () => {
  it('passes synthetic prints, also 0.88 and 1.14 times as large', () => {
    for (let seed = 1; seed <= 3; seed++) {
      const print = syntheticFingerprint(seed, seed % 3);
      for (const image of [print, scaleImage(print, 0.88), scaleImage(print, 1.14)]) {
        const likeness = assessLikeness(image);
        expect(likeness.isFingerprint, `seed ${seed}`).toBe(true);
        expect(likeness.score).toBeGreaterThanOrEqual(LIKENESS_PASS);
      }
    }
  });

  it('refuses face photos and a rendered identity card, saying why', async () => {
    const images = [
      ...(await Promise.all(([1, 2, 3, 4, 5, 6] as const).map((n) => grey(samplePhoto(n))))),
      await grey(await renderIdCard()),
    ];
    for (const image of images) {
      const likeness = assessLikeness(image);
      expect(likeness.isFingerprint).toBe(false);
      expect(likeness.score).toBeLessThan(LIKENESS_PASS);
      expect(likeness.reason).toMatch(/photo|document|ridge/);
    }
  });

  it('refuses printed text', async () => {
    const lines = Array.from(
      { length: 14 },
      (_, i) =>
        `<text x="10" y="${25 + i * 27}" font-size="22" font-family="sans-serif">The quick brown fox ${i}</text>`,
    ).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="600" height="400" fill="white"/>${lines}</svg>`;
    expect(assessLikeness(await grey(await sharp(Buffer.from(svg)).png().toBuffer())).isFingerprint).toBe(
      false,
    );
  });

  it('refuses a blank image as blank, and noise, a lattice, a grid of dots and a checkerboard as having no ridges', () => {
    const blank = assessLikeness(drawn(300, 300, () => 200));
    expect(blank).toMatchObject({ score: 0, isFingerprint: false });
    expect(blank.reason).toMatch(/blank/);
    const rng = createPrng(7);
    const others = [
      drawn(300, 300, () => rng.range(0, 255)),
      drawn(
        300,
        300,
        (x, y) => 128 + 50 * Math.cos((2 * Math.PI * x) / 9) + 50 * Math.cos((2 * Math.PI * y) / 9),
      ),
      drawn(300, 300, (x, y) => (x % 9 < 4 && y % 9 < 4 ? 40 : 220)),
      drawn(300, 300, (x, y) => ((((x / 6) | 0) + ((y / 6) | 0)) % 2 ? 30 : 220)),
    ];
    for (const image of others) {
      const likeness = assessLikeness(image);
      expect(likeness.isFingerprint).toBe(false);
      expect(likeness.reason).toMatch(/no pattern of parallel ridges/);
    }
  });
});
