import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine, type FaceEngineImpl } from '../../../face/index.js';
import { decodeImage } from '../../../imaging/decode.js';
import { LAYOUT } from '../../render/card-svg.js';
import { distortCard, type DistortOptions } from '../../render/distort.js';
import { renderIdCard, type RenderCardOptions } from '../../render/render-card.js';
import { detectGhostPortrait, type GhostSearchLimits, type GhostSearchOptions } from './detector.js';
import { overlap } from './windows.js';

/** Accuracy is tested over every window of a card's plan, whatever its size. */
const WHOLE_CARD: GhostSearchLimits = { maxWindows: 1000, budgetMs: 600_000, concurrency: 2 };

describe('ghost portrait on rendered cards (real face models)', () => {
  let face: FaceEngineImpl;
  beforeAll(async () => {
    face = await createFaceEngine();
  });
  afterAll(async () => face.dispose());

  const decoded = async (card: RenderCardOptions, distort: DistortOptions = {}) =>
    decodeImage(await distortCard(await renderIdCard(card), distort), { field: 'id_card' });
  const run = async (
    card: RenderCardOptions,
    distort: DistortOptions = {},
    options: Partial<GhostSearchOptions> = {},
  ) =>
    detectGhostPortrait(await face.analyseCard(await decoded(card, distort)), face, {
      limits: WHOLE_CARD,
      ...options,
    });

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

  it('finds the ghost of a card photographed sideways, searching under the portrait’s turn', async () => {
    const sideways = await sharp(await renderIdCard({ person: 1 }))
      .rotate(90)
      .jpeg()
      .toBuffer();
    const card = await face.analyseCard(await decodeImage(sideways, { field: 'id_card' }));
    expect(card.portrait?.rotation).toBe(270);
    const result = await detectGhostPortrait(card, face, { limits: WHOLE_CARD });
    expect(result.score).toBeGreaterThanOrEqual(0.5);
  });

  it('stops at the first candidate that passes the profile, and otherwise only when sure', async () => {
    // A tilted card whose ghost matches below the sure similarity: without a pass score the scan goes on.
    const card = await face.analyseCard(await decoded({ person: 1 }, { rotate: 4 }));
    const whole = await detectGhostPortrait(card, face, { limits: WHOLE_CARD });
    const decided = await detectGhostPortrait(card, face, { limits: WHOLE_CARD, passScore: 0.5 });
    expect(decided.score).toBeGreaterThanOrEqual(0.5);
    expect(whole.score).toBeGreaterThanOrEqual(decided.score);
    const scanned = (r: typeof whole): number => (r.details as { windows_scanned: number }).windows_scanned;
    expect(scanned(decided)).toBeLessThan(scanned(whole));
  });

  it('finds a ghost printed away from the portrait even with no time left (a machine far behind)', async () => {
    const result = await run({}, {}, { limits: { maxWindows: 40, budgetMs: 0, concurrency: 2 } });
    expect(result.score).toBeGreaterThanOrEqual(0.5);
  });

  it('stops at its window bound, at its time bound past the farther half of the plan, and when its signal aborts', async () => {
    const card = { ghost: false } as const;
    const two = await run(card, {}, { limits: { maxWindows: 2, budgetMs: 60_000, concurrency: 2 } });
    expect(two.details).toMatchObject({ windows_scanned: 2 });
    // Out of time from the start: the farther half of the plan is still searched.
    const timed = await run(card, {}, { limits: { maxWindows: 100, budgetMs: 0, concurrency: 2 } });
    const { windows_planned: planned } = timed.details as { windows_planned: number };
    expect(timed.details).toMatchObject({
      windows_scanned: Math.min(15, Math.ceil(planned / 2)),
      stopped: 'budget',
    });
    const cancelled = await run(card, {}, { signal: AbortSignal.abort() });
    expect(cancelled.details).toMatchObject({ windows_scanned: 0, stopped: 'cancelled' });
  });
});
