import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { distortCard, type DistortOptions } from '../../render/distort.js';
import { LAYOUT } from '../../render/card-svg.js';
import { markSvg } from '../../render/marks.js';
import { renderIdCard, type RenderCardOptions } from '../../render/render-card.js';
import type { GrayImage } from '../orb/gray-image.js';
import { matchMark, type MarkFeatures } from './match-mark.js';
import { extractCardFeatures, extractMarkFeatures } from './prepare.js';

async function gray(bytes: Buffer): Promise<GrayImage> {
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

async function score(mark: MarkFeatures, card: RenderCardOptions, distort: DistortOptions = {}) {
  const image = await gray(await distortCard(await renderIdCard(card), distort));
  return matchMark(mark, extractCardFeatures(image), image);
}

let arms: MarkFeatures;

beforeAll(async () => {
  // The operator registers the mark at another size than it is printed (300x360 vs about 150x180 on the card).
  arms = extractMarkFeatures(
    await gray(
      await sharp(Buffer.from(markSvg('arms', 1.5)))
        .png()
        .toBuffer(),
    ),
  );
});

describe('reference mark on rendered cards', () => {
  it('finds the mark where it is printed', async () => {
    const found = await score(arms, {});
    expect(found.score).toBeGreaterThanOrEqual(0.5);
    const m = LAYOUT.mark;
    const r = found.region!;
    // The printed shield (150 wide, scaled into the 150x180 box) lies inside the found region and vice versa.
    expect(r.x).toBeGreaterThan(m.x - 20);
    expect(r.y).toBeGreaterThan(m.y - 20);
    expect(r.x + r.width).toBeLessThan(m.x + m.width + 20);
    expect(r.y + r.height).toBeLessThan(m.y + m.height + 20);
    expect(found.meanError).toBeLessThan(3);
  });

  it.each<[string, DistortOptions]>([
    ['scaled down', { scale: 0.6 }],
    ['scaled up', { scale: 1.5 }],
    ['rotated', { rotate: 6 }],
    ['rotated the other way', { rotate: -8 }],
    ['blurred', { blur: 1.5 }],
    ['darkened', { brightness: 0.45 }],
    ['perspective-warped', { perspective: 0.15 }],
    ['all at once', { perspective: 0.1, scale: 0.8, rotate: 3, blur: 1, brightness: 0.6 }],
  ])('finds the mark on a card %s', async (_name, distort) => {
    const found = await score(arms, {}, distort);
    expect(found.score).toBeGreaterThanOrEqual(0.5);
    expect(found.region).not.toBeNull();
  });

  it.each<[string, RenderCardOptions, DistortOptions]>([
    ['a look-alike mark', { mark: 'lookalike' }, {}],
    ['a rotated look-alike mark', { mark: 'lookalike' }, { rotate: 5 }],
    ['no mark', { mark: 'none' }, {}],
    ["a driver's licence without the mark", { mark: 'none', variant: 'dl' }, {}],
  ])('rejects %s', async (_name, card, distort) => {
    const found = await score(arms, card, distort);
    expect(found.score).toBeLessThan(0.5);
  });
});
