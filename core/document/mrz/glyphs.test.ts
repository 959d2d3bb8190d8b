import fs from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { alignToCells, classifyGlyphs, findGlyphGrid } from './glyphs.js';
import type { Raster } from './morphology.js';
import type { CandidateChar } from './repair.js';
import { TD1_SPECIMEN, TD3_SPECIMEN } from './test-fixtures.js';

/** Whether the OCR-B font (Debian fonts-ocr-b) is installed for rendering test lines. */
const hasOcrB = fs.existsSync('/usr/share/fonts/opentype/ocr-b/OCRB.otf');

/** Render one MRZ line in OCR-B, `size` px font, as a grey raster with a margin of paper around it. */
async function renderLine(text: string, size: number): Promise<Raster> {
  const width = Math.round(text.length * size * 0.75 + size * 2);
  const height = Math.round(size * 2);
  const escaped = text.replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#f4f1ea"/><text x="${size}" y="${Math.round(size * 1.35)}" font-family="OCR B" font-size="${size}">${escaped}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

const read = (text: string, prob = 0.9): CandidateChar[] =>
  Array.from(text, (char) => ({ char, prob, alternatives: [] }));

describe('OCR-B glyph classifier', () => {
  it.skipIf(!hasOcrB)('finds the fixed-pitch grid of a line', async () => {
    const line = await renderLine(TD3_SPECIMEN[1]!, 30);
    const grid = findGlyphGrid(line, 44);
    // OCR-B's advance is 0.725 em.
    expect(grid?.pitch).toBeGreaterThan(30 * 0.725 * 0.97);
    expect(grid?.pitch).toBeLessThan(30 * 0.725 * 1.03);
  });

  it.skipIf(!hasOcrB)('reads rendered MRZ lines, large and small', async () => {
    for (const text of TD1_SPECIMEN) {
      const large = classifyGlyphs(await renderLine(text, 40), 30);
      expect(large?.map((c) => c.char).join('')).toBe(text);
      // Caps about 9 px high: most characters still right (25 of 30 when written), the rest for the vote and the check digits.
      const small = classifyGlyphs(await renderLine(text, 13), 30) ?? [];
      const right = small.filter((c, i) => c.char === text[i]).length;
      expect(right).toBeGreaterThanOrEqual(24);
    }
  });

  it.skipIf(!hasOcrB)(
    'reads only the first cells asked for, on the grid of the whole line, among the characters asked for',
    async () => {
      const text = TD1_SPECIMEN[2]!;
      const first = classifyGlyphs(await renderLine(text, 40), 30, { count: 12, alphabet: /[A-Z<]/ });
      expect(first?.map((c) => c.char).join('')).toBe(text.slice(0, 12));
      expect(first?.flatMap((c) => c.alternatives).every((a) => /[A-Z<]/.test(a.char))).toBe(true);
    },
  );

  it('answers null for a strip without a line of that many characters', () => {
    const blank: Raster = { width: 200, height: 30, data: new Uint8Array(200 * 30).fill(255) };
    expect(classifyGlyphs(blank, 30)).toBeNull();
  });

  it('places a recognised line with dropped characters on the right cells', () => {
    const cells = read('I<UTOD23I458907<<<<<<<<<<<<<<<', 0.6);
    // The recogniser dropped "I<" at the start and the 9, and read 1 where the glyphs saw I.
    const aligned = alignToCells(read('UTOD23145807<<<<<<<<<<<<<<<'), cells);
    expect(aligned.map((c) => (c.prob === 0 ? '_' : c.char)).join('')).toBe('__UTOD231458_07<<<<<<<<<<<<<<<');
  });
});
