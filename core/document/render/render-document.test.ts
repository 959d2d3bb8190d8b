import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AUGMENTATIONS, augment } from './augment.js';
import { PAGE } from './document-svg.js';
import { seededRandom } from './random-document.js';
import { renderDocument } from './render-document.js';

describe('renderDocument and the augmentation families', () => {
  it('renders each format at its page size, the same page from the same seed', async () => {
    for (const format of ['TD1', 'TD2', 'TD3'] as const) {
      const page = await renderDocument({ format, seed: 5 });
      const meta = await sharp(page.png).metadata();
      expect([meta.width, meta.height]).toEqual([PAGE[format].width, PAGE[format].height]);
      expect(page.lines[0]).toHaveLength(format === 'TD1' ? 30 : format === 'TD2' ? 36 : 44);
    }
    const a = await renderDocument({ format: 'TD3', seed: 5 });
    const b = await renderDocument({ format: 'TD3', seed: 5 });
    expect(a.png.equals(b.png)).toBe(true);
    expect(a.lines).toEqual(b.lines);
    expect((await renderDocument({ format: 'TD3', seed: 6 })).lines).not.toEqual(a.lines);
  });

  it('degrades a page by every family, reproducibly', async () => {
    const page = await renderDocument({ format: 'TD2', seed: 1 });
    for (const family of AUGMENTATIONS) {
      const one = await augment(seededRandom(11), family, page.png);
      const two = await augment(seededRandom(11), family, page.png);
      expect(one.bytes.equals(two.bytes)).toBe(true);
      const meta = await sharp(one.bytes).metadata();
      expect(meta.width).toBeGreaterThan(200);
      if (family === 'low-resolution') expect(meta.width).toBeLessThanOrEqual(360);
      if (family === 'quarter-turn' && one.params.startsWith('turn 90'))
        expect(meta.height).toBeGreaterThan(meta.width ?? 0);
    }
  });
});
