import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { CtcLine } from '../ocr/ctc.js';
import { loadLineRecognizer, type LineRecognizer } from '../ocr/paddle-recognizer.js';
import { GreyPyramid, toGrey } from './grey.js';
import { readingDirection, ZoneReader } from './group-reader.js';
import { toDecoded } from './test-fixtures.js';
import { findMrzCandidates } from './zone.js';

const SENTENCES = [
  'der schnelle braune fuchs springt über den',
  'faulen hund. le renard brun rapide saute',
  'par-dessus le chien paresseux. la volpe',
  'marrone rapida salta sopra il cane pigro',
];

/** A page of lower-case print: evenly spaced lines of one length, as an MRZ's are. */
async function printPage(): Promise<Buffer> {
  const rows = SENTENCES.map(
    (text, i) =>
      `<text x="40" y="${90 + i * 44}" font-family="DejaVu Serif, serif" font-size="26">${text}</text>`,
  ).join('');
  const svg = `<svg width="820" height="320" xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="#fff"/>${rows}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('zones of lower-case print (real PP-OCRv4 model)', () => {
  let recognizer: LineRecognizer | null = null;
  afterAll(async () => recognizer?.dispose());

  async function probeAll(counting: LineRecognizer): Promise<(boolean | null)[]> {
    const pyramid = new GreyPyramid(toGrey(await toDecoded(await printPage())));
    const search = findMrzCandidates(pyramid);
    // Groups overlap: two or three neighbouring lines each, so a line heads more than one.
    expect(search.candidates.length).toBeGreaterThan(SENTENCES.length - 1);
    const reader = new ZoneReader(pyramid, search, counting, { maxCalls: 50, shouldStop: () => false });
    const directions: (boolean | null)[] = [];
    for (const candidate of search.candidates)
      directions.push(
        await readingDirection(reader.probe(candidate, false), () => reader.probe(candidate, true)),
      );
    return directions;
  }

  it('takes words the model reads in lower case for print, though few MRZ characters remain', async () => {
    // What a photographed line of print reads as: six MRZ characters, and the model's own thirty lower-case letters.
    const words: CtcLine = {
      text: 'UHULEU',
      chars: Array.from('UHULEU', (char, frame) => ({ char, prob: 0.75, alternatives: [], frame })),
      confidence: 0.75,
      foreign: 0.96,
      lowerCase: { count: 30, confidence: 0.95 },
    };
    let calls = 0;
    const directions = await probeAll({
      recognize: () => {
        calls++;
        return Promise.resolve(words);
      },
      dispose: () => Promise.resolve(),
    });
    expect(directions.every((d) => d === null)).toBe(true);
    expect(calls).toBeLessThanOrEqual(SENTENCES.length);
  });

  it('reads each line of print once, whichever group it heads, and never turned round', async () => {
    recognizer = await loadLineRecognizer();
    let calls = 0;
    const counting: LineRecognizer = {
      recognize: (line, chars, options) => {
        calls++;
        return recognizer!.recognize(line, chars, options);
      },
      dispose: () => Promise.resolve(),
    };
    expect((await probeAll(counting)).every((d) => d === null)).toBe(true);
    expect(calls).toBeLessThanOrEqual(SENTENCES.length);
  });
});
