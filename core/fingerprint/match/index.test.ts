import { describe, expect, it } from 'vitest';
import type { FingerprintFeatures, Minutia } from '../types.js';
import { compareFeatures } from './index.js';
import { encodeMask, MASK_CELL } from '../template/extra.js';
import { DEFAULT_FMR, scoreAtFmr } from '../calibration.js';
import { createPrng } from '../../math/prng.js';

/** Deterministic PRNG (mulberry32) so the fixtures are the same on every run. */
const prng = (seed: number): (() => number) => createPrng(seed).next;

/** A random print: n minutiae spread over a 300x360 area at least 10 px apart. */
function randomPrint(seed: number, n = 40): FingerprintFeatures {
  const rand = prng(seed);
  const minutiae: Minutia[] = [];
  while (minutiae.length < n) {
    const x = 20 + rand() * 260;
    const y = 20 + rand() * 320;
    if (minutiae.some((m) => Math.hypot(m.x - x, m.y - y) < 10)) continue;
    minutiae.push({
      x,
      y,
      angle: rand() * 2 * Math.PI,
      type: rand() < 0.5 ? 'ending' : 'bifurcation',
      quality: 60,
    });
  }
  return { width: 300, height: 360, dpi: 500, minutiae, quality: 60 };
}

/**
 * Another impression of the same print: rotated about its centre (ISO angles: counter-clockwise on screen, y down),
 * shifted, jittered by a pixel or two and a few degrees, with some minutiae lost and some spurious ones added.
 */
function reimpress(
  print: FingerprintFeatures,
  seed: number,
  degrees: number,
  dx: number,
  dy: number,
): FingerprintFeatures {
  const rand = prng(seed);
  const r = (degrees * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  const minutiae: Minutia[] = [];
  for (const m of print.minutiae) {
    if (rand() < 0.15) continue;
    const x0 = m.x - 150;
    const y0 = m.y - 180;
    // Counter-clockwise on screen with y down: x' = x cos + y sin, y' = -x sin + y cos.
    minutiae.push({
      ...m,
      x: 150 + c * x0 + s * y0 + dx + (rand() - 0.5) * 3,
      y: 180 - s * x0 + c * y0 + dy + (rand() - 0.5) * 3,
      angle: (m.angle + r + (rand() - 0.5) * 0.1 + 4 * Math.PI) % (2 * Math.PI),
    });
  }
  const extra = randomPrint(seed + 1000, 6).minutiae;
  return { ...print, minutiae: [...minutiae, ...extra] };
}

describe('compareFeatures', () => {
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (let k = 0; k < 6; k++) {
    const a = randomPrint(k + 1);
    genuine.push(compareFeatures(a, reimpress(a, k + 50, -40 + 16 * k, 15 - 6 * k, 4 * k - 10)));
    impostor.push(compareFeatures(a, randomPrint(k + 100)));
  }

  it('scores a rotated, shifted, jittered and partly different copy far above unrelated prints', () => {
    expect(Math.min(...genuine)).toBeGreaterThan(3 * Math.max(...impostor));
    // And above the default decision threshold (1 false match in 10,000).
    expect(Math.min(...genuine)).toBeGreaterThan(scoreAtFmr(DEFAULT_FMR));
  });

  it('gives an identical print the top score and is close to symmetric', () => {
    const a = randomPrint(7);
    const b = reimpress(a, 8, 25, 10, -5);
    expect(compareFeatures(a, a)).toBeGreaterThan(compareFeatures(a, b));
    const ab = compareFeatures(a, b);
    const ba = compareFeatures(b, a);
    expect(Math.abs(ab - ba)).toBeLessThan(0.2 * Math.max(ab, ba));
  });

  it('scores down a pairing whose ridges are spaced differently, not one pressed a little differently', () => {
    const a = randomPrint(11);
    const b = reimpress(a, 12, 0, 0, 0);
    const cols = Math.ceil(a.width / MASK_CELL);
    const rows = Math.ceil(a.height / MASK_CELL);
    // The same ridge flow everywhere (so the flow agrees), with a uniform ridge period in tenths of a pixel.
    const map = { cols, rows, cells: new Uint8Array(cols * rows).fill(90) };
    const withPeriod = (f: FingerprintFeatures, tenths?: number): FingerprintFeatures => ({
      ...f,
      extra: encodeMask(map, undefined, tenths ? new Uint8Array(cols * rows).fill(tenths) : undefined),
    });
    const same = compareFeatures(withPeriod(a, 90), withPeriod(b, 90));
    expect(same).toBeGreaterThan(0);
    // Without period maps (older or imported features) the period does not count.
    expect(compareFeatures(withPeriod(a), withPeriod(b))).toBe(same);
    expect(compareFeatures(withPeriod(a, 90), withPeriod(b))).toBe(same);
    // 3% apart: the same finger pressed harder; 40% apart: another finger's ridge spacing.
    expect(compareFeatures(withPeriod(a, 90), withPeriod(b, 93))).toBeGreaterThan(0.95 * same);
    expect(compareFeatures(withPeriod(a, 90), withPeriod(b, 135))).toBeLessThan(0.3 * same);
  });

  it('forgives ridge flow turned smoothly by twisted skin, not flow that differs from cell to cell', () => {
    const a = randomPrint(31);
    const b = reimpress(a, 32, 0, 0, 0);
    const cols = Math.ceil(a.width / MASK_CELL);
    const rows = Math.ceil(a.height / MASK_CELL);
    const rand = prng(33);
    const withFlow = (
      f: FingerprintFeatures,
      turn: (cx: number, cy: number) => number,
    ): FingerprintFeatures => {
      const cells = new Uint8Array(cols * rows);
      for (let cy = 0; cy < rows; cy++) {
        for (let cx = 0; cx < cols; cx++) cells[cy * cols + cx] = Math.round(90 + turn(cx, cy));
      }
      return { ...f, extra: encodeMask({ cols, rows, cells }) };
    };
    const flat = withFlow(a, () => 0);
    const same = compareFeatures(
      flat,
      withFlow(b, () => 0),
    );
    // The lower half of the print turned by up to 24 degrees, growing smoothly from the middle down.
    const twisted = compareFeatures(
      flat,
      withFlow(b, (_, cy) => 24 * Math.max(0, (cy - rows / 2) / (rows / 2))),
    );
    // As far off on average, but each cell at random.
    const noisy = compareFeatures(
      flat,
      withFlow(b, () => (rand() < 0.5 ? -1 : 1) * 12 * (1 + rand())),
    );
    expect(twisted).toBeGreaterThan(0.9 * same);
    expect(noisy).toBeLessThan(0.6 * same);
  });

  it('pairs the minutiae of a region the skin has twisted, where the ridge flow shows the twist', () => {
    const a = randomPrint(41, 50);
    const cols = Math.ceil(a.width / MASK_CELL);
    const rows = Math.ceil(a.height / MASK_CELL);
    // Below y = 180 the skin turns, by 24 degrees from y = 240 down, about the centre of the part above.
    const twist = (y: number): number => Math.min(1, Math.max(0, y - 180) / 60) * ((24 * Math.PI) / 180);
    const upper = a.minutiae.filter((m) => m.y <= 180);
    const cx = upper.reduce((sum, m) => sum + m.x, 0) / upper.length;
    const cy = upper.reduce((sum, m) => sum + m.y, 0) / upper.length;
    const twisted = a.minutiae.map((m) => {
      // In image terms (y down) a turn by t takes (x, y) to (x cos t - y sin t, x sin t + y cos t); the minutia has
      // moved by half the turn at its place, and its ridge is turned by all of it (ISO angles turn the other way).
      const t = twist(m.y);
      const dx = m.x - cx;
      const dy = m.y - cy;
      const c = Math.cos(t / 2);
      const s = Math.sin(t / 2);
      return {
        ...m,
        x: cx + c * dx - s * dy,
        y: cy + s * dx + c * dy,
        angle: (m.angle - t + 2 * Math.PI) % (2 * Math.PI),
      };
    });
    const withFlow = (f: FingerprintFeatures, turned: boolean): FingerprintFeatures => {
      const cells = new Uint8Array(cols * rows);
      for (let y = 0; y < rows; y++) {
        const degrees = turned ? (twist((y + 0.5) * MASK_CELL) * 180) / Math.PI : 0;
        cells.fill(Math.round(90 + degrees), y * cols, (y + 1) * cols);
      }
      return { ...f, extra: encodeMask({ cols, rows, cells }) };
    };
    const whole = compareFeatures(withFlow(a, false), withFlow({ ...a, minutiae: twisted }, true));
    // The same impression with the twisted region's minutiae missing altogether.
    const cut = compareFeatures(
      withFlow(a, false),
      withFlow({ ...a, minutiae: twisted.filter((_, k) => a.minutiae[k]!.y <= 180) }, true),
    );
    // Paired under the twist, the turned region adds to the score (paired rigidly, it scored 0.94 of the cut one).
    expect(whole).toBeGreaterThan(1.2 * cut);
  });

  it('gives full credit to a finger turned by up to 60 degrees and none to one turned past 120', () => {
    const a = randomPrint(21);
    const turned = (degrees: number) => compareFeatures(a, reimpress(a, 22, degrees, 0, 0));
    expect(turned(55)).toBeGreaterThan(scoreAtFmr(DEFAULT_FMR));
    // The same jitter at 90 degrees: half the credit of an alignment within the free range.
    expect(turned(90)).toBeGreaterThan(0.3 * turned(0));
    expect(turned(90)).toBeLessThan(0.7 * turned(0));
    // Past the limit only chance alignments of a few minutiae remain.
    for (const degrees of [150, -150, 180]) {
      expect(turned(degrees)).toBeLessThan(0.1 * turned(0));
      expect(turned(degrees)).toBeLessThan(scoreAtFmr(DEFAULT_FMR));
    }
  });

  it('returns 0 when a print has no minutiae, and handles other resolutions', () => {
    const a = randomPrint(9);
    expect(compareFeatures(a, { ...a, minutiae: [] })).toBe(0);
    // The same print described at 1000 dpi (coordinates doubled) is still the same print.
    const hi = { ...a, dpi: 1000, minutiae: a.minutiae.map((m) => ({ ...m, x: m.x * 2, y: m.y * 2 })) };
    expect(compareFeatures(a, hi)).toBeCloseTo(compareFeatures(a, a), 0);
  });
});
