import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { webImage } from './web.js';

/** A white page 200 pixels wide with a black block in its middle. */
function page(): Promise<Buffer> {
  return sharp({ create: { width: 200, height: 120, channels: 3, background: '#ffffff' } })
    .composite([
      {
        input: {
          create: { width: 80, height: 40, channels: 3, background: '#000000' },
        },
        left: 60,
        top: 40,
      },
    ])
    .png()
    .toBuffer();
}

/** Size, format and the grey of a corner (paper) and of the middle (the block) of an image. */
async function look(
  bytes: Buffer,
): Promise<{ width: number; format?: string; paper: number; print: number }> {
  const { format } = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number): number => data[y * info.width + x]!;
  return {
    width: info.width,
    format,
    paper: at(2, 2),
    print: at(info.width >> 1, info.height >> 1),
  };
}

describe('webImage', () => {
  it('shrinks the page and saves it as JPEG, black on white as it was', async () => {
    const out = await look(await webImage(await page(), 0.25));
    expect(out.format).toBe('jpeg');
    expect(out.width).toBe(50);
    expect(out.paper).toBeGreaterThan(245);
    expect(out.print).toBeLessThan(10);
  });

  it('squeezes the grey range: washed out, print light grey on white; dim, both darker', async () => {
    const washed = await look(await webImage(await page(), 0.5, 60));
    expect(washed.paper).toBeGreaterThan(245);
    expect(Math.abs(washed.print - 195)).toBeLessThanOrEqual(6);
    const dim = await look(await webImage(await page(), 0.5, 60, 158));
    expect(Math.abs(dim.paper - 158)).toBeLessThanOrEqual(6);
    expect(Math.abs(dim.print - 98)).toBeLessThanOrEqual(6);
  });
});
