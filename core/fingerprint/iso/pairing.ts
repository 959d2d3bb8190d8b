import type { Minutia } from '../types.js';

/** Pairing tolerances of the comparison with another extractor. */
export interface PairingTolerance {
  distance: number;
  angle: number;
}

export const DEFAULT_TOLERANCE: PairingTolerance = { distance: 10, angle: Math.PI / 6 };

function angleGap(a: number, b: number): number {
  const d = Math.abs(a - b) % (2 * Math.PI);
  return Math.min(d, 2 * Math.PI - d);
}

/** Greedy one-to-one pairing: how many of `theirs` have a distinct minutia of `ours` within the tolerances. */
export function countPairs(
  ours: Minutia[],
  theirs: Minutia[],
  tolerance: PairingTolerance = DEFAULT_TOLERANCE,
): number {
  const candidates: { i: number; j: number; d: number }[] = [];
  theirs.forEach((t, i) => {
    ours.forEach((o, j) => {
      const d = Math.hypot(o.x - t.x, o.y - t.y);
      if (d <= tolerance.distance && angleGap(o.angle, t.angle) <= tolerance.angle)
        candidates.push({ i, j, d });
    });
  });
  candidates.sort((a, b) => a.d - b.d);
  const usedTheirs = new Set<number>();
  const usedOurs = new Set<number>();
  for (const c of candidates) {
    if (usedTheirs.has(c.i) || usedOurs.has(c.j)) continue;
    usedTheirs.add(c.i);
    usedOurs.add(c.j);
  }
  return usedTheirs.size;
}

/**
 * The translation that best lays `theirs` over `ours` (a vote over minutia pairs of similar direction, 2 px
 * cells, refined by the pairing count). Another extractor may crop or pad the image, so positions can be
 * offset by a constant; the angles must already be in our convention.
 */
export function bestTranslation(
  ours: Minutia[],
  theirs: Minutia[],
  tolerance: PairingTolerance = DEFAULT_TOLERANCE,
): { dx: number; dy: number } {
  const votes = new Map<number, number>();
  const key = (x: number, y: number): number => (Math.round(x / 2) + 2048) * 4096 + Math.round(y / 2) + 2048;
  for (const t of theirs) {
    for (const o of ours) {
      if (angleGap(o.angle, t.angle) > tolerance.angle) continue;
      const k = key(o.x - t.x, o.y - t.y);
      votes.set(k, (votes.get(k) ?? 0) + 1);
    }
  }
  const top = [...votes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
  let best = { dx: 0, dy: 0 };
  let bestCount = -1;
  for (const [k] of top) {
    const dx = (Math.floor(k / 4096) - 2048) * 2;
    const dy = ((k % 4096) - 2048) * 2;
    const count = countPairs(
      ours,
      theirs.map((t) => ({ ...t, x: t.x + dx, y: t.y + dy })),
      tolerance,
    );
    if (count > bestCount) {
      bestCount = count;
      best = { dx, dy };
    }
  }
  return best;
}
