/**
 * Shared mechanics of the first-stage indexes that vote on rotations (minutia-hashes.ts, star-edges.ts): buckets
 * of postings (an enrollment's slot and a quantised minutia direction; posting-lists.ts), votes spread over the
 * relative rotation of the probe's minutia and the enrollment's, and each enrollment scoring its best rotation, so
 * that only collisions agreeing on one turn of the finger add up.
 */

import type { SlotTable } from './slots.js';

/** Levels of a quantised minutia direction, and the bits it takes in a posting. */
export const POSTING_DIRECTION_LEVELS = 64;
export const POSTING_DIRECTION_BITS = 6;
/** Relative-rotation bins an enrollment's votes are spread over. */
export const ROTATION_BINS = 16;
/**
 * Both minutia indexes split each bucket by the minutia's own direction into DIRECTION_SECTORS sectors of 45 degrees,
 * and a probe minutia looks up its sector and the one on either side (see minutia-hashes.ts for why and the figures).
 */
export const DIRECTION_SECTORS = 8;

/**
 * Both minutia indexes skip a bucket (a stop word) holding more postings than 1% of the gallery and than a floor of
 * 300: in a small gallery almost every bucket is above 1%, so the floor keeps the finger's own collisions. 300 rather
 * than 1,000: on the bench's 10k gallery the shortlist holds the finger for 97.5% of probes instead of 96.1% and
 * rank-1 is 90.7% instead of 89.3%, the search p95 116 against 134 ms; each index gives about half of the gain. At 1k
 * nothing changes, and from 100k up 1% of the gallery is above either floor. 200 or 100 lose probes in the first
 * stage. Why 1% for each index: see minutia-hashes.ts and star-edges.ts.
 */
const STOP_WORD_SHARE = 0.01;
const STOP_WORD_FLOOR = 300;

/** Postings above which a bucket is skipped when voting, for a gallery of `gallery` enrollments. */
export function stopWordLimit(gallery: number): number {
  return Math.max(STOP_WORD_FLOOR, gallery * STOP_WORD_SHARE);
}

/** The direction sector (of DIRECTION_SECTORS) of a minutia direction `level` (0 .. POSTING_DIRECTION_LEVELS - 1). */
export function sectorOf(level: number): number {
  return Math.floor((level * DIRECTION_SECTORS) / POSTING_DIRECTION_LEVELS);
}

/** The direction sectors a probe minutia of direction `level` looks up: its own and the two beside it. */
export function nearSectors(level: number): [number, number, number] {
  const own = sectorOf(level);
  return [(own + DIRECTION_SECTORS - 1) % DIRECTION_SECTORS, own, (own + 1) % DIRECTION_SECTORS];
}

/** A vote over a gallery: rotation bins per enrollment, reused between queries. */
export class RotationVotes {
  private votes = new Float32Array(0);

  /** Zeroed bins for slots 0 .. slots - 1. */
  begin(slots: number): Float32Array {
    const needed = slots * ROTATION_BINS;
    if (this.votes.length < needed) this.votes = new Float32Array(Math.ceil(needed * 1.25));
    this.votes.fill(0, 0, needed);
    return this.votes;
  }

  /** Bytes held. */
  bytes(): number {
    return this.votes.byteLength;
  }

  /** Drop the buffer. */
  clear(): void {
    this.votes = new Float32Array(0);
  }
}

/** A slot's score in a vote: its best rotation bin. */
export function bestRotation(votes: Float32Array, slot: number): number {
  const base = slot * ROTATION_BINS;
  if (base + ROTATION_BINS > votes.length) return 0;
  let best = 0;
  for (let b = 0; b < ROTATION_BINS; b++) if (votes[base + b]! > best) best = votes[base + b]!;
  return best;
}

/**
 * The ids of the `count` held enrollments with the strongest votes, best first: each scores its slot's best rotation
 * bin, times `scale[slot]` when a scale is given. Ties go to the lower id.
 */
export function bestByRotation(
  votes: Float32Array,
  slots: SlotTable,
  count: number,
  scale?: Float32Array,
): number[] {
  const ids = new Float64Array(slots.live);
  const scores = new Float32Array(slots.live);
  let voted = 0;
  for (let slot = 0; slot < slots.count; slot++) {
    const id = slots.id(slot);
    if (Number.isNaN(id)) continue;
    const best = bestRotation(votes, slot) * (scale ? (scale[slot] ?? 0) : 1);
    if (best <= 0) continue;
    ids[voted] = id;
    scores[voted++] = best;
  }
  // The count-th best score (selected in linear time: a sort of 100k scores cost several ms a query), then only
  // what reaches it is ordered.
  const want = Math.max(0, Math.min(count, voted));
  if (want === 0) return [];
  const floor = kthSmallest(scores.slice(0, voted), voted - want);
  const kept: { id: number; score: number }[] = [];
  for (let i = 0; i < voted; i++) if (scores[i]! >= floor) kept.push({ id: ids[i]!, score: scores[i]! });
  kept.sort((a, b) => b.score - a.score || a.id - b.id);
  return kept.slice(0, want).map((k) => k.id);
}

/** The k-th smallest value of `a` (0-based), as a sort would place it; reorders `a` (quickselect, median of three). */
export function kthSmallest(a: Float32Array, k: number): number {
  if (!(k >= 0 && k < a.length)) throw new RangeError(`No element ${k} among ${a.length}`);
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const x = a[lo]!;
    const y = a[(lo + hi) >>> 1]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    // Now a[lo..j] <= pivot, a[i..hi] >= pivot and everything between equals it.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}
