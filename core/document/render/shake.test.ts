import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { shaken, smearKernel } from './shake.js';

/** Pixels of a grey image's middle row (or column) darker than light grey (200): the dot and its smear. */
async function darkSpan(jpeg: Buffer, along: 'row' | 'column'): Promise<number> {
  const { data, info } = await sharp(jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  let count = 0;
  const n = along === 'row' ? width : height;
  for (let i = 0; i < n; i++) {
    const v = along === 'row' ? data[(height >> 1) * width + i]! : data[i * width + (width >> 1)]!;
    if (v < 200) count++;
  }
  return count;
}

describe('shaken', () => {
  it('smears along a straight path: a kernel summing to one, on its row or its column', () => {
    for (const [length, degrees] of [
      [6, 0],
      [9.5, 90],
      [5, 45],
    ] as const) {
      const { width, height, kernel } = smearKernel(length, degrees);
      expect(width % 2).toBe(1);
      expect(height).toBe(width);
      expect(kernel.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      const mid = width >> 1;
      const off = kernel.reduce((sum, w, i) => {
        const x = (i % width) - mid;
        const y = Math.floor(i / width) - mid;
        // Distance of the cell from the path's line.
        const d = Math.abs(
          -x * Math.sin((degrees * Math.PI) / 180) + y * Math.cos((degrees * Math.PI) / 180),
        );
        return d > 1 ? sum + w : sum;
      }, 0);
      expect(off).toBe(0);
    }
  });

  it('widens a dot along the direction it is shaken, not across it', async () => {
    const dot = await sharp({
      create: { width: 61, height: 61, channels: 3, background: '#ffffff' },
    })
      .composite([
        {
          input: await sharp({ create: { width: 5, height: 5, channels: 3, background: '#000000' } })
            .png()
            .toBuffer(),
          left: 28,
          top: 28,
        },
      ])
      .png()
      .toBuffer();
    const along = await shaken(dot, 12, 0);
    const across = await shaken(dot, 12, 90);
    expect(await darkSpan(along, 'row')).toBeGreaterThan(await darkSpan(along, 'column'));
    expect(await darkSpan(across, 'column')).toBeGreaterThan(await darkSpan(across, 'row'));
  });
});
