import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { A4_SCAN, onFlatbed, printedWidth } from './flatbed.js';

/** A black page 300 by 200 pixels. */
function page(): Promise<Buffer> {
  return sharp({ create: { width: 300, height: 200, channels: 3, background: '#000000' } })
    .png()
    .toBuffer();
}

/** The bounding box of the dark pixels of a scan, and its size and format. */
async function look(bytes: Buffer): Promise<{
  width: number;
  height: number;
  format?: string;
  box: { left: number; top: number; right: number; bottom: number };
}> {
  const { format } = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  const box = { left: info.width, top: info.height, right: -1, bottom: -1 };
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (data[y * info.width + x]! < 128) {
        box.left = Math.min(box.left, x);
        box.right = Math.max(box.right, x);
        box.top = Math.min(box.top, y);
        box.bottom = Math.max(box.bottom, y);
      }
  return { width: info.width, height: info.height, format, box };
}

describe('onFlatbed', () => {
  it('lays the page at the given width near the corner of an A4 scan at 300 dpi, as JPEG', async () => {
    const out = await look(await onFlatbed(await page(), 600, 0));
    expect(out.format).toBe('jpeg');
    expect([out.width, out.height]).toEqual([A4_SCAN.width, A4_SCAN.height]);
    expect(Math.abs(out.box.right + 1 - out.box.left - 600)).toBeLessThanOrEqual(2);
    expect(Math.abs(out.box.bottom + 1 - out.box.top - 400)).toBeLessThanOrEqual(2);
    expect(out.box.left).toBeLessThan(A4_SCAN.width / 10);
    expect(out.box.top).toBeLessThan(A4_SCAN.height / 10);
  });

  it('turns the page askew: its box grows by the turn', async () => {
    const out = await look(await onFlatbed(await page(), 600, 3));
    const sin = Math.sin((3 * Math.PI) / 180);
    const cos = Math.cos((3 * Math.PI) / 180);
    expect(Math.abs(out.box.right + 1 - out.box.left - (600 * cos + 400 * sin))).toBeLessThanOrEqual(3);
  });
});

describe('printedWidth', () => {
  it('gives ICAO sizes at 300 dpi: an ID-1 card, an ID-2 card, a passport', () => {
    expect(printedWidth('TD1')).toBe(1011);
    expect(printedWidth('TD2')).toBe(1240);
    expect(printedWidth('TD3')).toBe(1476);
  });
});
