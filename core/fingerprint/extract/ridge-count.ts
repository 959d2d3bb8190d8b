import { NEIGHBOURS, neighbourStars } from '../match/prepare.js';
import { RIDGES_UNKNOWN } from '../template/extra.js';

/**
 * Ridges crossed by the straight segment between two minutiae on the binary ridge image (1 = ridge), not counting
 * the ridges the two minutiae sit on; RIDGES_UNKNOWN when the segment leaves the usable print. One-sample runs are
 * ignored as noise. Ridge counts do not change when the skin stretches, unlike distances.
 */
export function ridgesBetween(
  binary: Uint8Array,
  width: number,
  inside: (x: number, y: number) => boolean,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): number {
  const length = Math.hypot(x1 - x0, y1 - y0);
  const steps = Math.max(1, Math.round(length));
  let prev = 1;
  let run = 0;
  let crossings = 0;
  let last = 1;
  for (let s = 1; s < steps; s++) {
    const x = Math.round(x0 + ((x1 - x0) * s) / steps);
    const y = Math.round(y0 + ((y1 - y0) * s) / steps);
    if (!inside(x, y)) return RIDGES_UNKNOWN;
    const v = binary[y * width + x]!;
    if (v === prev) {
      run++;
    } else {
      // A change that lasts at least two samples; a one-sample blip is noise.
      run = 1;
      prev = v;
      continue;
    }
    if (run === 2 && v !== last) {
      if (v === 1) crossings++;
      last = v;
    }
  }
  // Reaching the other minutia's own ridge is not a crossing.
  if (last === 1 && crossings > 0) crossings--;
  return Math.min(RIDGES_UNKNOWN - 1, crossings);
}

/**
 * Ridge counts for every slot of the minutiae's neighbour stars (the matcher's own star definition), the stars taken
 * at (xs, ys) and the ridges counted on `binary` between the same minutiae at `at` (where the binary image is
 * enlarged; by default the same points).
 */
export function starRidgeCounts(
  binary: Uint8Array,
  width: number,
  inside: (x: number, y: number) => boolean,
  xs: number[],
  ys: number[],
  at?: readonly { x: number; y: number }[],
): Uint8Array {
  const stars = neighbourStars(xs, ys);
  const out = new Uint8Array(xs.length * NEIGHBOURS).fill(RIDGES_UNKNOWN);
  for (let i = 0; i < xs.length; i++) {
    for (let k = 0; k < stars.count[i]!; k++) {
      const slot = i * NEIGHBOURS + k;
      const j = stars.other[slot]!;
      out[slot] = at
        ? ridgesBetween(binary, width, inside, at[i]!.x, at[i]!.y, at[j]!.x, at[j]!.y)
        : ridgesBetween(binary, width, inside, xs[i]!, ys[i]!, xs[j]!, ys[j]!);
    }
  }
  return out;
}
