import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine, type FaceEngineImpl } from '../../../face/index.js';
import { decodeImage } from '../../../imaging/decode.js';
import { LAYOUT } from '../../render/card-svg.js';
import { distortCard, type DistortOptions } from '../../render/distort.js';
import { renderIdCard, type RenderCardOptions } from '../../render/render-card.js';
import { detectGhostPortrait } from './detector.js';
import { overlap } from './windows.js';

describe('ghost portrait on rendered cards (real face models)', () => {
  let face: FaceEngineImpl;
  beforeAll(async () => {
    face = await createFaceEngine();
  });
  afterAll(async () => face.dispose());

  const run = async (card: RenderCardOptions, distort: DistortOptions = {}) =>
    detectGhostPortrait(
      await decodeImage(await distortCard(await renderIdCard(card), distort), { field: 'id_card' }),
      face,
    );

  it.each<[string, RenderCardOptions, DistortOptions]>([
    ['person 0', {}, {}],
    ['person 1', { person: 1 }, {}],
    ['person 2', { person: 2 }, {}],
    ['a rotated card', {}, { rotate: 4 }],
    ['person 1 on a tilted card', { person: 1 }, { rotate: 4 }],
    ['a dim photo', {}, { brightness: 0.5 }],
  ])('finds the ghost of %s where it is printed', async (_name, card, distort) => {
    const result = await run(card, distort);
    expect(result.score).toBeGreaterThanOrEqual(0.5);
    expect(result.region).not.toBeNull();
    if (!distort.rotate) expect(overlap(result.region!, LAYOUT.ghost)).toBeGreaterThan(0.5);
  });

  it.each<[string, RenderCardOptions]>([
    ['a card without a ghost image', { ghost: false }],
    ["someone else's ghost image", { ghostPerson: 1 }],
    ["someone else's ghost image (2)", { person: 2, ghostPerson: 0 }],
  ])('fails on %s', async (_name, card) => {
    const result = await run(card);
    expect(result.score).toBeLessThan(0.5);
  });
});
