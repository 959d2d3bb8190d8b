import {
  ANGLE_BINS,
  angleBin,
  edgeKey,
  KEY_COUNT,
  LENGTH_BIN,
  LENGTH_BINS,
  TURN_BINS,
  turnBin,
} from '../match/edge-hash.js';
import { NEIGHBOURS, preparePrint } from '../match/prepare.js';
import type { FingerprintFeatures } from '../types.js';
import { bestByRotation } from './rotation-votes.js';

/**
 * Third first-stage index of the 1:N search, over the matcher's own local structure: each minutia's edges to its
 * STAR_EDGES nearest neighbours, quantised as the matcher's edge hash does (length, angle of the edge relative to
 * the minutia, turn of the neighbour's direction; match/edge-hash.ts). A probe edge votes for the enrollments
 * holding an edge in its bin or the bins next to it, weighted by log(gallery share / bucket size), on the relative
 * rotation of the two minutiae; an enrollment scores its best rotation. The vector and the cylinder hashes lose
 * prints whose minutiae neighbourhoods changed much between impressions (missing or extra minutiae move a global
 * histogram and blur a cylinder), while single edges between true minutiae survive.
 */

/** Nearest-neighbour edges per minutia (the nearest are the least distorted and the most often present). */
export const STAR_EDGES = 3;
/** Relative-rotation bins an enrollment's votes are spread over. */
const ROTATION_BINS = 16;
/**
 * A vote weighs log(1 + BUCKET_SHARE x gallery / bucket size): rare bins say more. Buckets above SKIP_SHARE of the
 * gallery (and SKIP_MIN postings) are skipped: at 100k they cost most of the query and add little (skipping above
 * 5% instead of 2% kept the same strong probes for twice the time; 1% lost one). Skipping needs a large gallery:
 * with a few hundred prints every bucket is "crowded" and the finger's own edges would be dropped.
 */
const BUCKET_SHARE = 0.05;
const SKIP_SHARE = 0.02;
const SKIP_MIN = 1000;
/** Length tolerance of the probe's lookups (pixels either side). */
const LENGTH_REACH = 6;
/** Levels of an edge's quantised minutia direction, and the posting layout: enrollment id << 6 | direction. */
const DIRECTION_LEVELS = 64;
const DIRECTION_BITS = 6;
export const MAX_STAR_ID = 2 ** (31 - DIRECTION_BITS);

/** A print's star edges: bucket key and quantised direction (DIRECTION_LEVELS steps, image terms) of each. */
export interface StarEdges {
  keys: Uint16Array;
  directions: Uint8Array;
}

function directionLevel(dir: number): number {
  const turn = (((dir % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)) / (2 * Math.PI);
  return Math.floor(turn * DIRECTION_LEVELS) % DIRECTION_LEVELS;
}

/** The star edges of a print (at most STAR_EDGES per minutia). */
export function computeStarEdges(features: FingerprintFeatures): StarEdges {
  const p = preparePrint(features);
  const keys: number[] = [];
  const directions: number[] = [];
  for (let i = 0; i < p.n; i++) {
    const level = directionLevel(p.dir[i]!);
    for (let k = 0; k < Math.min(STAR_EDGES, p.edgeCount[i]!); k++) {
      const slot = i * NEIGHBOURS + k;
      keys.push(
        edgeKey(
          Math.min(LENGTH_BINS - 1, Math.floor(p.edgeLength[slot]! / LENGTH_BIN)),
          angleBin(p.edgeAngle[slot]!),
          turnBin(p.edgeTurn[slot]!),
        ),
      );
      directions.push(level);
    }
  }
  return { keys: Uint16Array.from(keys), directions: Uint8Array.from(directions) };
}

/** The probe-side view of a print: per edge, its direction and the bins it looks up. */
export interface StarProbe {
  directions: Uint8Array;
  /** Bucket keys to look up, edge e's from lookups[start[e]] to lookups[start[e + 1]]. */
  start: Int32Array;
  lookups: Int32Array;
}

/** The probe's lookups: each edge's length bins within LENGTH_REACH and the angle and turn bins either side. */
export function starProbe(features: FingerprintFeatures): StarProbe {
  const p = preparePrint(features);
  const directions: number[] = [];
  const start: number[] = [0];
  const lookups: number[] = [];
  for (let i = 0; i < p.n; i++) {
    const level = directionLevel(p.dir[i]!);
    for (let k = 0; k < Math.min(STAR_EDGES, p.edgeCount[i]!); k++) {
      const slot = i * NEIGHBOURS + k;
      const length = p.edgeLength[slot]!;
      const l0 = Math.max(0, Math.floor((length - LENGTH_REACH) / LENGTH_BIN));
      const l1 = Math.min(LENGTH_BINS - 1, Math.floor((length + LENGTH_REACH) / LENGTH_BIN));
      const a = angleBin(p.edgeAngle[slot]!);
      const t = turnBin(p.edgeTurn[slot]!);
      for (let l = l0; l <= l1; l++) {
        for (let da = -1; da <= 1; da++) {
          for (let dt = -1; dt <= 1; dt++)
            lookups.push(edgeKey(l, (a + da + ANGLE_BINS) % ANGLE_BINS, (t + dt + TURN_BINS) % TURN_BINS));
        }
      }
      directions.push(level);
      start.push(lookups.length);
    }
  }
  return {
    directions: Uint8Array.from(directions),
    start: Int32Array.from(start),
    lookups: Int32Array.from(lookups),
  };
}

interface Bucket {
  postings: Int32Array;
  size: number;
}

/**
 * In-memory inverted index from star-edge bins to enrollments (derived data only: bins, ids, 6-bit directions),
 * rebuilt whenever the engine starts. About 4 bytes per posting: 40 minutiae x 3 edges = 0.5 kB an enrollment,
 * 50 MB at 100k.
 */
export class StarEdgeIndex {
  private readonly buckets = new Array<Bucket | undefined>(KEY_COUNT).fill(undefined);
  private readonly members = new Set<number>();
  private votes = new Float32Array(0);

  get size(): number {
    return this.members.size;
  }

  /** Index the star edges of enrollment `id` (its old postings must be removed first). */
  add(id: number, edges: StarEdges): void {
    if (!Number.isInteger(id) || id < 0 || id >= MAX_STAR_ID) throw new Error(`Cannot index id ${id}`);
    for (let e = 0; e < edges.keys.length; e++) {
      const key = edges.keys[e]!;
      let bucket = this.buckets[key];
      if (!bucket) this.buckets[key] = bucket = { postings: new Int32Array(16), size: 0 };
      if (bucket.size === bucket.postings.length) {
        const grown = new Int32Array(bucket.postings.length * 2);
        grown.set(bucket.postings);
        bucket.postings = grown;
      }
      bucket.postings[bucket.size++] = (id << DIRECTION_BITS) | edges.directions[e]!;
    }
    this.members.add(id);
  }

  /** Remove the postings of enrollment `id` made from these edges (the ones it was added with). */
  remove(id: number, edges: StarEdges): void {
    for (let e = 0; e < edges.keys.length; e++) {
      const bucket = this.buckets[edges.keys[e]!];
      if (!bucket) continue;
      const at = bucket.postings
        .subarray(0, bucket.size)
        .indexOf((id << DIRECTION_BITS) | edges.directions[e]!);
      if (at < 0) continue;
      bucket.postings[at] = bucket.postings[--bucket.size]!;
    }
    this.members.delete(id);
  }

  /** Give back the spare room of every bucket (after a bulk load). */
  compact(): void {
    for (const bucket of this.buckets) if (bucket) bucket.postings = bucket.postings.slice(0, bucket.size);
  }

  clear(): void {
    this.buckets.fill(undefined);
    this.members.clear();
    this.votes = new Float32Array(0);
  }

  /** The `count` enrollments with the strongest rotation-consistent star-edge votes, best first. */
  nearest(probe: StarProbe, count: number): number[] {
    const gallery = Math.max(1, this.members.size);
    let maxId = 0;
    for (const id of this.members) if (id > maxId) maxId = id;
    const needed = (maxId + 1) * ROTATION_BINS;
    if (this.votes.length < needed) this.votes = new Float32Array(Math.ceil(needed * 1.25));
    const votes = this.votes;
    votes.fill(0, 0, needed);
    const binScale = ROTATION_BINS / DIRECTION_LEVELS;
    const skipAbove = Math.max(SKIP_MIN, gallery * SKIP_SHARE);
    const mask = (1 << DIRECTION_BITS) - 1;
    for (let e = 0; e < probe.directions.length; e++) {
      const direction = probe.directions[e]!;
      for (let q = probe.start[e]!; q < probe.start[e + 1]!; q++) {
        const bucket = this.buckets[probe.lookups[q]!];
        if (!bucket || bucket.size === 0) continue;
        if (bucket.size > skipAbove) continue;
        const weight = Math.log(1 + (gallery * BUCKET_SHARE) / bucket.size);
        const postings = bucket.postings;
        for (let p = 0; p < bucket.size; p++) {
          const posting = postings[p]!;
          const turn = (((posting & mask) - direction + DIRECTION_LEVELS) % DIRECTION_LEVELS) * binScale;
          const b0 = turn | 0;
          const base = (posting >>> DIRECTION_BITS) * ROTATION_BINS;
          const share = turn - b0;
          votes[base + b0]! += weight * (1 - share);
          votes[base + ((b0 + 1) % ROTATION_BINS)]! += weight * share;
        }
      }
    }
    return bestByRotation(votes, this.members, ROTATION_BINS, count);
  }
}
