import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { extremum, reweighted } from './weight.js';

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

describe('extremum', () => {
  it('takes the least or greatest value within the radius along rows, the page edges included', () => {
    const values = [9, 5, 7, 8, 1, 6, 4, 3, 2];
    const rgb = Buffer.from(values.flatMap((v) => [v, v, v]));
    const least = [...extremum(rgb, 9, 1, 1, true, 'rows')].filter((_, i) => i % 3 === 0);
    expect(least).toEqual([5, 5, 5, 1, 1, 1, 3, 2, 2]);
    const greatest = [...extremum(rgb, 9, 1, 2, false, 'rows')].filter((_, i) => i % 3 === 0);
    expect(greatest).toEqual([9, 9, 9, 8, 8, 8, 6, 6, 4]);
    const column = [...extremum(rgb, 1, 9, 1, true, 'columns')].filter((_, i) => i % 3 === 0);
    expect(column).toEqual(least);
  });
});
