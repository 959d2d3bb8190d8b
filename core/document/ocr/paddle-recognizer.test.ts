import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { TD3_SPECIMEN } from '../mrz/test-fixtures.js';
import { MRZ_ALPHABET } from '../mrz/group-reader.js';
import { loadLineRecognizer, type GrayImage, type LineRecognizer } from './paddle-recognizer.js';

let recognizer: LineRecognizer | undefined;
afterAll(async () => {
  await recognizer?.dispose();
});

/** One MRZ line drawn black on white, cut as the reader cuts a strip (1.4 text heights). */
async function line(text: string): Promise<GrayImage> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="42"><rect width="100%" height="100%" fill="white"/><text x="20" y="31" font-family="OCR B, monospace" font-size="30">${text.replace(/</g, '&lt;')}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

describe('line recogniser', () => {
  it('reads a line alike on one thread and, when a core is spare, on two', async () => {
    recognizer = await loadLineRecognizer();
    const strip = await line(TD3_SPECIMEN[1]!);
    const one = await recognizer.recognize(strip, MRZ_ALPHABET, { stretch: 1 });
    const two = await recognizer.recognize(strip, MRZ_ALPHABET, { stretch: 1, spareCore: true });
    // The raw reading (no repair yet): every character but a look-alike or two (O/0) as printed.
    const printed = TD3_SPECIMEN[1]!;
    expect(one.text).toHaveLength(printed.length);
    let differ = 0;
    for (let i = 0; i < printed.length; i++) if (one.text[i] !== printed[i]) differ++;
    expect(differ).toBeLessThanOrEqual(2);
    expect(two.text).toBe(one.text);
    expect(two.confidence).toBeCloseTo(one.confidence, 4);
  });
});
