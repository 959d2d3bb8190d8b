import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { reweighted } from './weight.js';

/** A white page 200 pixels wide with a black bar 20 pixels wide down its middle. */
function page(): Promise<Buffer> {
  return sharp({ create: { width: 200, height: 100, channels: 3, background: '#ffffff' } })
    .composite([
      { input: { create: { width: 20, height: 60, channels: 3, background: '#000000' } }, left: 90, top: 20 },
    ])
    .png()
    .toBuffer();
}

/** How many pixels of the middle row are darker than mid-grey, and the grey of the pixels either side of the bar. */
async function bar(bytes: Buffer): Promise<{ dark: number; format?: string }> {
  const { format } = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  const row = data.subarray((info.height >> 1) * info.width, ((info.height >> 1) + 1) * info.width);
  return { dark: row.filter((v) => v < 128).length, format };
}

describe('reweighted', () => {
  it('moves the edges of dark strokes outward for heavier print and inward for lighter, as a JPEG', async () => {
    expect((await bar(await page())).dark).toBe(20);
    const heavier = await bar(await reweighted(await page(), 3));
    expect(heavier.format).toBe('jpeg');
    expect(heavier.dark).toBe(26);
    expect((await bar(await reweighted(await page(), -3))).dark).toBe(14);
  });

  it('moves them by a fraction of a pixel too', async () => {
    const grey = async (px: number): Promise<number> => {
      const { data, info } = await sharp(await reweighted(await page(), px))
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return data[(info.height >> 1) * info.width + 89]!;
    };
    // The pixel beside the bar darkens as the edge moves half a pixel, then a whole one, into it.
    const [none, half, whole] = [await grey(0.01), await grey(0.5), await grey(1)];
    expect(none).toBeGreaterThan(220);
    expect(half).toBeLessThan(none - 60);
    expect(whole).toBeLessThan(half - 60);
  });
});
