import { neighbourCode, transitions } from './skeleton.js';

/** How a traced ridge path stopped. */
export type TraceEnd = 'ending' | 'bifurcation' | 'open';

/** A walk along the skeleton from a minutia. */
export interface TracePath {
  /** Pixel indices visited after the start, in order. */
  pixels: number[];
  end: TraceEnd;
}

/**
 * Walks along skeleton ridges. `stamp` marks pixels visited by the current walk so a walk never turns back, and
 * is reset cheaply by bumping the generation number.
 */
export class SkeletonWalker {
  private readonly stamp: Int32Array;
  private generation = 0;

  constructor(
    private readonly skeleton: Uint8Array,
    private readonly offsets: Int32Array,
  ) {
    this.stamp = new Int32Array(skeleton.length);
  }

  /** The first pixel of each branch leaving `start` (one per run of on-neighbours, preferring 4-neighbours). */
  branches(start: number): number[] {
    const code = neighbourCode(this.skeleton, start, this.offsets);
    const out: number[] = [];
    for (let k = 0; k < 8; k++) {
      // A run starts where the previous neighbour is off and this one is on.
      if (!((code >> k) & 1) || (code >> ((k + 7) & 7)) & 1) continue;
      let pick = k;
      for (let j = k; (code >> (j & 7)) & 1 && j < k + 8; j++) {
        if ((j & 7) % 2 === 0) {
          pick = j & 7;
          break;
        }
      }
      out.push(start + this.offsets[pick]!);
    }
    if (out.length === 0 && code === 255) out.push(start + this.offsets[0]!);
    return out;
  }

  /** Follow the ridge from `start` through `first` for at most `maxSteps` pixels or until the next minutia. */
  walk(start: number, first: number, maxSteps: number): TracePath {
    const g = ++this.generation;
    const sk = this.skeleton;
    const off = this.offsets;
    this.stamp[start] = g;
    for (let k = 0; k < 8; k++) if (sk[start + off[k]!]) this.stamp[start + off[k]!] = g;
    const pixels: number[] = [];
    let prev = start;
    let cur = first;
    for (let step = 0; step < maxSteps; step++) {
      pixels.push(cur);
      this.stamp[cur] = g;
      const a = transitions(neighbourCode(sk, cur, off));
      if (a === 1) return { pixels, end: 'ending' };
      if (a >= 3) return { pixels, end: 'bifurcation' };
      let next = -1;
      for (let k = 0; k < 8; k++) {
        const j = cur + off[k]!;
        if (!sk[j] || this.stamp[j] === g || isNeighbour(j, prev, off)) continue;
        if (next < 0 || k % 2 === 0) next = j;
        if (k % 2 === 0) break;
      }
      if (next < 0) return { pixels, end: 'open' };
      prev = cur;
      cur = next;
    }
    return { pixels, end: 'open' };
  }
}

function isNeighbour(a: number, b: number, offsets: Int32Array): boolean {
  for (let k = 0; k < 8; k++) if (a + offsets[k]! === b) return true;
  return false;
}
