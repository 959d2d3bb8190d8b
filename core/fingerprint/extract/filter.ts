import { wrapAngle } from '../match/geometry.js';
import type { RawMinutia } from './minutiae.js';

/**
 * Ridge fragments shorter than this between two endings are noise (pixels, about one ridge period); longer limits
 * removed more true minutiae than false ones.
 */
const FRAGMENT = 8;
/** A branch this short off a fork is a spur or a bridge (pixels). */
const SPUR = 4;
/** Facing endings closer than this are one broken ridge (pixels). */
const GAP = 18;

/**
 * Remove the classic false minutiae, judged on the original set at once: spurs (an ending whose ridge reaches a
 * fork within SPUR), short fragments and dots (two endings joined by a short ridge), bridges and lakes (two forks
 * joined by a short ridge), and broken ridges (two endings facing each other across a small gap).
 */
export function removeSpurious(minutiae: RawMinutia[], width: number): RawMinutia[] {
  const at = new Map<number, number>();
  minutiae.forEach((m, k) => at.set(m.y * width + m.x, k));
  const find = (pixel: number): number => {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const k = at.get(pixel + dy * width + dx);
        if (k !== undefined) return k;
      }
    }
    return -1;
  };
  const doomed = new Uint8Array(minutiae.length);
  minutiae.forEach((m, k) => {
    for (const path of m.paths) {
      const length = path.pixels.length;
      // A ridge that stops dead within a few pixels is a speck, whatever is at its end.
      if (path.end === 'open') {
        if (length < 5) doomed[k] = 1;
        continue;
      }
      const limit = !m.bifurcation && path.end === 'ending' ? FRAGMENT : SPUR;
      if (length > limit) continue;
      doomed[k] = 1;
      const other = find(path.pixels[length - 1]!);
      if (other >= 0) doomed[other] = 1;
    }
  });
  const endings = minutiae.map((m, k) => ({ m, k })).filter((e) => !e.m.bifurcation);
  for (let i = 0; i < endings.length; i++) {
    for (let j = i + 1; j < endings.length; j++) {
      const a = endings[i]!.m;
      const b = endings[j]!.m;
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const d = Math.hypot(dx, dy);
      if (d > GAP || d < 1) continue;
      const toward = Math.atan2(dy, dx);
      // a points at b, b points back at a: the two halves of one interrupted ridge.
      if (Math.cos(wrapAngle(a.dir - b.dir)) < -0.5 && Math.cos(wrapAngle(a.dir - toward)) > 0.5) {
        doomed[endings[i]!.k] = 1;
        doomed[endings[j]!.k] = 1;
      }
    }
  }
  return minutiae.filter((_, k) => !doomed[k]);
}
