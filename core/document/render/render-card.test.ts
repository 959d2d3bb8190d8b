import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { distortCard } from './distort.js';
import { CARD } from './card-svg.js';
import { renderIdCard } from './render-card.js';

describe('renderIdCard', () => {
  it('renders a deterministic ID-1 sized JPEG', async () => {
    const a = await renderIdCard({ person: 2 });
    const b = await renderIdCard({ person: 2 });
    expect(a.equals(b)).toBe(true);
    const meta = await sharp(a).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', CARD.width, CARD.height]);
  });

  it('changes with its options', async () => {
    const genuine = await renderIdCard();
    for (const options of [
      { corruptMrz: 'composite' as const },
      { ghost: false },
      { mark: 'lookalike' as const },
      { variant: 'dl' as const },
    ]) {
      expect((await renderIdCard(options)).equals(genuine)).toBe(false);
    }
  });

  it('distorts: scale changes the size, rotation enlarges the canvas, perspective keeps it', async () => {
    const card = await renderIdCard();
    expect((await sharp(await distortCard(card, { scale: 0.5 })).metadata()).width).toBe(
      Math.round(CARD.width / 2),
    );
    expect((await sharp(await distortCard(card, { rotate: 5 })).metadata()).height).toBeGreaterThan(
      CARD.height,
    );
    expect((await sharp(await distortCard(card, { perspective: 0.1 })).metadata()).width).toBe(CARD.width);
  });
});
