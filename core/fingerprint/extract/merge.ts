import type { Minutia } from '../types.js';

/** Minutiae of two readings closer than this (pixels) and ... */
const MERGE_DISTANCE = 8;
/** ... whose directions differ by less than this are one minutia. */
const MERGE_ANGLE = Math.PI / 6;

interface Merged {
  first: Minutia;
  sx: number;
  sy: number;
  c: number;
  s: number;
  n: number;
}

/**
 * One minutia set from several readings of the same print (the enhanced image binarised at several margins): a
 * minutia of a later reading within MERGE_DISTANCE and MERGE_ANGLE of one already kept (the nearest not yet matched
 * by this reading) is the same minutia, and the kept one moves to the mean position and direction of its readings;
 * any other is added. Type and quality are the first reading's. Where a ridge is ambiguous (a break or a bridge
 * that one threshold sees and another does not), the set keeps both hypotheses, and the matcher pairs whichever
 * the other impression shows.
 */
export function mergeMinutiae(readings: Minutia[][]): Minutia[] {
  const kept: Merged[] = [];
  const cosLimit = Math.cos(MERGE_ANGLE);
  for (const reading of readings) {
    const matched = new Uint8Array(kept.length);
    const added: Merged[] = [];
    for (const m of reading) {
      let best = -1;
      let bestDistance = MERGE_DISTANCE;
      for (let k = 0; k < matched.length; k++) {
        if (matched[k]) continue;
        const q = kept[k]!;
        const d = Math.hypot(q.sx / q.n - m.x, q.sy / q.n - m.y);
        if (d >= bestDistance) continue;
        // The kept minutia's mean direction against this one's: cos of the difference from the summed unit vectors.
        const norm = Math.hypot(q.c, q.s);
        if (norm === 0 || (q.c * Math.cos(m.angle) + q.s * Math.sin(m.angle)) / norm <= cosLimit) continue;
        best = k;
        bestDistance = d;
      }
      if (best >= 0) {
        matched[best] = 1;
        const q = kept[best]!;
        q.sx += m.x;
        q.sy += m.y;
        q.c += Math.cos(m.angle);
        q.s += Math.sin(m.angle);
        q.n++;
      } else {
        added.push({ first: m, sx: m.x, sy: m.y, c: Math.cos(m.angle), s: Math.sin(m.angle), n: 1 });
      }
    }
    kept.push(...added);
  }
  return kept.map((q) => {
    if (q.n === 1) return q.first;
    const angle = Math.atan2(q.s, q.c);
    return {
      ...q.first,
      x: Math.round(q.sx / q.n),
      y: Math.round(q.sy / q.n),
      angle: angle < 0 ? angle + 2 * Math.PI : angle,
    };
  });
}
