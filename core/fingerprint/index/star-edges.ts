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
import { preparedPrint } from '../match/index.js';
import { NEIGHBOURS, type PreparedPrint } from '../match/prepare.js';
import type { FingerprintFeatures } from '../types.js';
import { PostingLists } from './posting-lists.js';
import {
  bestByRotation,
  bestRotation,
  nearSectors,
  POSTING_DIRECTION_LEVELS,
  RotationVotes,
  stopWordLimit,
} from './rotation-votes.js';
import { SlotTable } from './slots.js';

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
/**
 * A vote weighs log(1 + BUCKET_SHARE x gallery / bucket size): rare bins say more. Buckets above 1% of the gallery
 * (and 300 postings: stopWordLimit in rotation-votes.ts) are skipped: at 100k they cost most of the query and add
 * little (skipping above 5% instead of 2% kept the same strong probes for twice the time; 1% lost one). Since the
 * direction sectors a bucket holds an eighth of the postings, and 1% (1,000 at 100k) finds the finger in the best
 * 300 for 205 of the 237 strong probes of the saved gallery, 2% for 214 at 1.5 times the query's p95. Skipping needs
 * a large gallery: with a few hundred prints every bucket is "crowded" and the finger's own edges would be dropped.
 */
const BUCKET_SHARE = 0.05;
/** Length tolerance of the probe's lookups (pixels either side). */
const LENGTH_REACH = 6;
/*
 * Each bucket is split into the direction sectors of rotation-votes.ts (DIRECTION_SECTORS), and a probe edge looks
 * up its sector and the one on either side, as the minutia hash index does: edges of minutiae turned by more than 45
 * to 90 degrees from the probe's no longer vote. On the saved 100k gallery the best 300 by star edges hold the finger
 * for 214 of the 237 strong probes instead of 132; with the other lists, the first stage holds it for one more (235)
 * and, its votes also ranking the second stage, two more reach the shortlist. Prints turned further are still found
 * through the embedding.
 */
/**
 * A probe looks up the edges of at most this many of its minutiae, spread evenly over its list: a query costs in
 * proportion to the probe's edges, and prints of 50-80 minutiae made the search's p95 (their star queries took
 * 90-135 ms at 100k). On the saved 100k gallery it cut the search's p95 from 309 to 278 ms for one strong probe
 * fewer in the shortlist (233 of 237).
 */
const PROBE_CAP = 30;

/** A print's star edges: bucket key and quantised direction (POSTING_DIRECTION_LEVELS steps, image terms) of each. */
export interface StarEdges {
  keys: Uint16Array;
  directions: Uint8Array;
}

function directionLevel(dir: number): number {
  const turn = (((dir % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)) / (2 * Math.PI);
  return Math.floor(turn * POSTING_DIRECTION_LEVELS) % POSTING_DIRECTION_LEVELS;
}

/** Each star edge of a print (at most STAR_EDGES per minutia): its slot in the prepared print and its direction. */
function forEachStarEdge(
  p: PreparedPrint,
  visit: (slot: number, level: number) => void,
  cap = Infinity,
): void {
  for (let i = 0; i < p.n; i++) {
    // At most `cap` minutiae, spread evenly over the print's list.
    if (p.n > cap && Math.floor(((i + 1) * cap) / p.n) === Math.floor((i * cap) / p.n)) continue;
    const level = directionLevel(p.dir[i]!);
    for (let k = 0; k < Math.min(STAR_EDGES, p.edgeCount[i]!); k++) visit(i * NEIGHBOURS + k, level);
  }
}

/** The star edges of a print (at most STAR_EDGES per minutia). */
export function computeStarEdges(features: FingerprintFeatures): StarEdges {
  const p = preparedPrint(features);
  const keys: number[] = [];
  const directions: number[] = [];
  forEachStarEdge(p, (slot, level) => {
    // The matcher's own quantisation of the edge (prepare.ts).
    keys.push(p.edgeKeys[slot]!);
    directions.push(level);
  });
  return { keys: Uint16Array.from(keys), directions: Uint8Array.from(directions) };
}

/** A star-edge query's best enrollments, and the vote of any enrollment (0 for one without a vote). */
export interface StarVotes {
  ids: number[];
  score: (id: number) => number;
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
  const p = preparedPrint(features);
  const directions: number[] = [];
  const start: number[] = [0];
  const lookups: number[] = [];
  forEachStarEdge(
    p,
    (slot, level) => {
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
    },
    PROBE_CAP,
  );
  return {
    directions: Uint8Array.from(directions),
    start: Int32Array.from(start),
    lookups: Int32Array.from(lookups),
  };
}

/**
 * In-memory inverted index from star-edge bins to enrollments (derived data only: bins, slots, 6-bit directions),
 * rebuilt whenever the engine starts. 40 minutiae x 3 edges, about 0.2 kB an enrollment in posting-lists.ts.
 */
export class StarEdgeIndex {
  private lists = new PostingLists(KEY_COUNT);
  private readonly owned: boolean;
  /** Slots released by `forget` whose postings still count: counted out in one pass before the next query. */
  private forgotten: number[] = [];

  /** An index over the enrollments of `slots` with a `votes` buffer, shared or its own (as MinutiaHashIndex). */
  constructor(
    private readonly slots: SlotTable = new SlotTable(),
    private readonly votes: RotationVotes = new RotationVotes(),
  ) {
    this.owned = arguments.length === 0;
  }

  get size(): number {
    return this.slots.live;
  }

  /** Index the star edges of enrollment `id` (its old postings must be removed first). */
  add(id: number, edges: StarEdges): void {
    const slot = this.owned ? this.slots.assign(id) : this.slots.slot(id);
    if (slot === undefined) throw new Error(`Enrollment ${id} has no slot`);
    for (let e = 0; e < edges.keys.length; e++) this.lists.add(edges.keys[e]!, edges.directions[e]!, slot);
  }

  /** Remove the postings of enrollment `id` made from these edges (the ones it was added with). */
  remove(id: number, edges: StarEdges): void {
    if (this.slots.slot(id) === undefined) return;
    for (let e = 0; e < edges.keys.length; e++) this.lists.discount(edges.keys[e]!, edges.directions[e]!);
    if (!this.owned) return;
    this.slots.release(id);
    if (2 * this.slots.live < this.slots.count) this.renumber(this.slots.compact());
  }

  /**
   * Remove the postings of enrollment `id` without its edges, before its shared slot is released: the gallery index
   * does not keep every print's edges, and one pass over all postings before the next query counts these out.
   */
  forget(id: number): void {
    const slot = this.slots.slot(id);
    if (slot !== undefined) this.forgotten.push(slot);
  }

  /** Drop released slots' postings (`renumber` from SlotTable.compact) and give back spare room. */
  renumber(renumber: Int32Array): void {
    this.lists = this.lists.renumbered(renumber);
    this.forgotten = [];
  }

  /** Drop released slots, when this index owns its slots (a shared index is compacted by its owner). */
  compact(): void {
    if (this.owned && this.slots.count > this.slots.live) this.renumber(this.slots.compact());
  }

  clear(): void {
    this.lists = new PostingLists(KEY_COUNT);
    this.forgotten = [];
    if (this.owned) this.slots.clear();
    this.votes.clear();
  }

  /** Bytes held (postings, and the slot table and vote buffer unless shared). */
  bytes(): number {
    return this.lists.bytes() + (this.owned ? this.slots.bytes() + this.votes.bytes() : 0);
  }

  /** The `count` enrollments with the strongest rotation-consistent star-edge votes, best first. */
  nearest(probe: StarProbe, count: number): number[] {
    return this.query(probe, count).ids;
  }

  /**
   * `nearest`, with every enrollment's vote: `score(id)` reads this query's votes and holds until the next query
   * of this index or one sharing its vote buffer (the search reads it within the same synchronous call).
   */
  query(probe: StarProbe, count: number): StarVotes {
    const votes = this.tally(probe);
    return {
      ids: bestByRotation(votes, this.slots, count),
      score: (id) => {
        const slot = this.slots.slot(id);
        return slot === undefined ? 0 : bestRotation(votes, slot);
      },
    };
  }

  private tally(probe: StarProbe): Float32Array {
    if (this.forgotten.length > 0) {
      const released = new Uint8Array(this.slots.count);
      for (const slot of this.forgotten) released[slot] = 1;
      this.lists.discountSlots(released);
      this.forgotten = [];
    }
    const gallery = Math.max(1, this.slots.live);
    const votes = this.votes.begin(this.slots.count);
    const skipAbove = stopWordLimit(gallery);
    for (let e = 0; e < probe.directions.length; e++) {
      for (let q = probe.start[e]!; q < probe.start[e + 1]!; q++) {
        for (const sector of nearSectors(probe.directions[e]!)) {
          const bucket = this.lists.bucket(probe.lookups[q]!, sector);
          const size = this.lists.size(bucket);
          if (size === 0 || size > skipAbove) continue;
          this.lists.castVotes(
            votes,
            bucket,
            probe.directions[e]!,
            Math.log(1 + (gallery * BUCKET_SHARE) / size),
          );
        }
      }
    }
    return votes;
  }
}
