import { createPrng } from '../../math/prng.js';
import { CYLINDER_WORDS, DIRECTION_LEVELS, type Cylinders } from './cylinders.js';
import { PostingLists } from './posting-lists.js';
import {
  bestByRotation,
  DIRECTION_SECTORS,
  nearSectors,
  RotationVotes,
  stopWordLimit,
} from './rotation-votes.js';
import { SlotTable } from './slots.js';

/**
 * First search stage over minutiae (after Cappelli, Ferrara and Maltoni's MCC indexing, 2011): every minutia
 * cylinder is hashed into HASH_TABLES tables by locality-sensitive hashing, and a probe's cylinders vote for the
 * enrollments that share their buckets. Our cylinders are sparse (20-35 of 256 bits set), so each table's key is
 * a MinHash band (the first set bit under BAND fixed random permutations of the 256 bits): two cylinders collide
 * with probability Jaccard^BAND, so close cylinders meet in several tables and chance pairs rarely. A vote is
 * weighted by log(gallery / bucket size) (buckets every print reaches say little) and cast on the relative
 * rotation of the two minutiae (ROTATION_BINS bins): an enrollment scores its best rotation, so only collisions
 * that agree on one turn of the finger add up. At 100k synthetic records with 40 FVC fingers planted, of the
 * probes the matcher scores above its 1-in-100k threshold the top 1000 by hashes kept the finger for 71.5%, the
 * embedding's top 1500 for 83.6% (2500: 85.5%), the union of both for 89.9%.
 */

/**
 * Hash tables (independent MinHash bands). With the direction sectors below, 16 tables instead of 8 put the finger
 * in the hash list for 235 instead of 234 of the 237 strong probes of the saved 100k gallery, and rank the remaining
 * hard ones much higher (one from 276th to 20th, another from 396th to 159th), which the shortlist uses. 16 tables
 * double the postings: 16 x 40 cylinders, about 1.5 kB an enrollment in posting-lists.ts, 145 MB at 100k enrollments.
 */
export const HASH_TABLES = 16;
/** MinHash values per band: 2 x 8 bits = a 16-bit bucket key. */
const BAND = 2;
/**
 * Each MinHash bucket is split by the minutia's own direction into DIRECTION_SECTORS sectors of 45 degrees, and a probe
 * cylinder looks up its sector and the one on either side: so a gallery minutia turned by up to 45 degrees (up to 90
 * in part) from the probe's still meets it, and the others no longer dilute the vote. Our sparse cylinders give few
 * distinct MinHash keys (a table fills about 8,500 of its 65,536), so without the split the buckets where genuine
 * cylinders collide mostly held tens of thousands of postings and were skipped. On the saved 100k gallery, of the 237
 * probes the matcher scores above its 1-in-100k threshold, the finger is in the hash list for 231 instead of 199.
 * Prints turned further from their enrollment are still found by the embedding and star-edge lists, which do not
 * depend on the turn.
 */
const KEYS = 1 << (8 * BAND);
/*
 * Stop words (stopWordLimit in rotation-votes.ts): buckets holding more than 1% of the gallery are skipped when
 * voting. Before the direction sectors the biggest buckets held 100-200k postings at 100k, and skipping those above
 * 10% cut a query from 36 to 23 ms for 1.5 points of first-stage recall. A sector holds an eighth of that, and the
 * genuine collisions are no longer in the crowded ones: with 16 tables, skipping above 1% (1,000 postings at 100k)
 * finds the finger for 235 of 237 strong probes, as many as 5% (234), with the query's p95 at 27 against 43 ms.
 */
/**
 * An enrollment's vote is divided by its cylinder count to this power: a print with many minutiae collides by chance
 * in many more buckets, and outvoted enrollments with few (a small or partial first impression). On the saved 100k
 * gallery (280 probes), of the probes the matcher scores above its 1-in-100k threshold the finger reached the first
 * stage for 211 of 221 with the raw vote, 212 with a power of 0.25 or 1, 214 with 0.5 or 0.75 (model fp-2026.11-8);
 * with fp-2026.11-9, 225 of 237 with the raw vote or 0.5, and 252 of all 280 probes reached the shortlist against 250.
 */
const SIZE_POWER = 0.5;

/**
 * Fixed pseudo-random permutations of the cylinder bits (core/math's mulberry32, a constant seed: every install
 * agrees).
 */
function permutations(count: number): Uint8Array[] {
  const { next } = createPrng(0x1dc0ffee);
  return Array.from({ length: count }, () => {
    const p = Uint8Array.from({ length: CYLINDER_WORDS * 32 }, (_, i) => i);
    for (let i = p.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      const t = p[i]!;
      p[i] = p[j]!;
      p[j] = t;
    }
    return p;
  });
}

const PERMUTATIONS = permutations(HASH_TABLES * BAND);

/** What the index reads of a print's cylinders. */
type HashedCylinders = Pick<Cylinders, 'n' | 'bits' | 'directions'>;

/**
 * The bucket key of every cylinder in every table: keys[c * HASH_TABLES + t], or -1 for an empty cylinder.
 * About 40 us for a 40-minutia print.
 */
export function cylinderHashes(cylinders: Pick<Cylinders, 'n' | 'bits'>): Int32Array {
  const keys = new Int32Array(cylinders.n * HASH_TABLES);
  const set = new Uint8Array(CYLINDER_WORDS * 32);
  for (let c = 0; c < cylinders.n; c++) {
    let size = 0;
    for (let w = 0; w < CYLINDER_WORDS; w++) {
      let word = cylinders.bits[c * CYLINDER_WORDS + w]!;
      while (word !== 0) {
        const low = word & -word;
        set[size++] = w * 32 + 31 - Math.clz32(low);
        word ^= low;
      }
    }
    for (let t = 0; t < HASH_TABLES; t++) {
      if (size === 0) {
        keys[c * HASH_TABLES + t] = -1;
        continue;
      }
      let key = 0;
      for (let h = 0; h < BAND; h++) {
        const perm = PERMUTATIONS[t * BAND + h]!;
        let best = 256;
        let arg = 0;
        for (let s = 0; s < size; s++) {
          const rank = perm[set[s]!]!;
          if (rank < best) {
            best = rank;
            arg = set[s]!;
          }
        }
        key = (key << 8) | arg;
      }
      keys[c * HASH_TABLES + t] = key;
    }
  }
  return keys;
}

/**
 * In-memory inverted index from bucket keys to enrollments. It holds derived data only (bucket keys of a few
 * bits, slots and 6-bit minutia directions; no cylinder, template or image) and is rebuilt from the sealed
 * cylinders whenever the engine starts.
 */
export class MinutiaHashIndex {
  /** Table t's key k is list key t * KEYS + k. */
  private lists = new PostingLists(HASH_TABLES * KEYS);
  /** Each slot's vote scale, 1 / sqrt(its cylinders) (see SIZE_POWER). */
  private scale = new Float32Array(0);
  private readonly owned: boolean;

  /**
   * An index over the enrollments of `slots`: given, they are shared with other indexes and assigned, released and
   * compacted by their owner (gallery-index.ts), as may be the `votes` buffer (a query's votes are read before the
   * next query of any index sharing it); otherwise this index keeps its own.
   */
  constructor(
    private readonly slots: SlotTable = new SlotTable(),
    private readonly votes: RotationVotes = new RotationVotes(),
  ) {
    this.owned = arguments.length === 0;
  }

  /** Enrollments indexed. */
  get size(): number {
    return this.slots.live;
  }

  /** Index the cylinders of enrollment `id` (its old postings must be removed first). */
  add(id: number, cylinders: HashedCylinders): void {
    const slot = this.owned ? this.slots.assign(id) : this.slots.slot(id);
    if (slot === undefined) throw new Error(`Enrollment ${id} has no slot`);
    this.forEachPosting(cylinders, (key, level) => {
      this.lists.add(key, level, slot);
    });
    if (slot >= this.scale.length) {
      const grown = new Float32Array(Math.max(1024, Math.ceil(1.5 * (slot + 1))));
      grown.set(this.scale);
      this.scale = grown;
    }
    this.scale[slot] = Math.max(1, cylinders.n) ** -SIZE_POWER;
  }

  /** Remove the postings of enrollment `id` made from these cylinders (the ones it was added with). */
  remove(id: number, cylinders: HashedCylinders): void {
    if (this.slots.slot(id) === undefined) return;
    this.forEachPosting(cylinders, (key, level) => {
      this.lists.discount(key, level);
    });
    if (!this.owned) return;
    this.slots.release(id);
    if (2 * this.slots.live < this.slots.count) this.renumber(this.slots.compact());
  }

  /** Whether enrollment `id` is indexed. */
  has(id: number): boolean {
    return this.slots.slot(id) !== undefined;
  }

  /** Drop released slots' postings (`renumber` from SlotTable.compact) and give back spare room. */
  renumber(renumber: Int32Array): void {
    this.lists = this.lists.renumbered(renumber);
    const scale = new Float32Array(Math.max(1024, this.slots.count));
    renumber.forEach((slot, old) => {
      if (slot >= 0) scale[slot] = this.scale[old]!;
    });
    this.scale = scale;
  }

  /** Drop released slots, when this index owns its slots (a shared index is compacted by its owner). */
  compact(): void {
    if (this.owned && this.slots.count > this.slots.live) this.renumber(this.slots.compact());
  }

  /** Forget everything. */
  clear(): void {
    this.lists = new PostingLists(HASH_TABLES * KEYS);
    if (this.owned) this.slots.clear();
    this.votes.clear();
    this.scale = new Float32Array(0);
  }

  /** Bytes held (postings, vote scales and the vote buffer; a shared slot table is its owner's). */
  bytes(): number {
    return (
      this.lists.bytes() + this.scale.byteLength + this.votes.bytes() + (this.owned ? this.slots.bytes() : 0)
    );
  }

  /** The `count` enrollments with the strongest rotation-consistent votes of the probe's cylinders, best first. */
  nearest(probe: Cylinders, count: number): number[] {
    const keys = cylinderHashes(probe);
    const gallery = Math.max(1, this.slots.live);
    const votes = this.votes.begin(this.slots.count);
    const skipAbove = stopWordLimit(gallery);
    const seen = new Set<number>();
    for (let t = 0; t < HASH_TABLES; t++) {
      // A bucket counts once per table even when several probe cylinders fall in it.
      seen.clear();
      for (let c = 0; c < probe.n; c++) {
        const hash = keys[c * HASH_TABLES + t]!;
        if (hash < 0) continue;
        for (const sector of nearSectors(probe.directions[c]!)) {
          const seenKey = hash * DIRECTION_SECTORS + sector;
          if (seen.has(seenKey)) continue;
          seen.add(seenKey);
          const bucket = this.lists.bucket(t * KEYS + hash, sector);
          const size = this.lists.size(bucket);
          if (size === 0 || size > skipAbove) continue;
          this.lists.castVotes(votes, bucket, probe.directions[c]!, Math.log(gallery / size));
        }
      }
    }
    return bestByRotation(votes, this.slots, count, this.scale);
  }

  /** Each posting of a print: its list key and minutia direction. */
  private forEachPosting(cylinders: HashedCylinders, visit: (key: number, level: number) => void): void {
    const keys = cylinderHashes(cylinders);
    const seen = new Set<number>();
    for (let t = 0; t < HASH_TABLES; t++) {
      // One posting per (bucket, direction) and enrollment.
      seen.clear();
      for (let c = 0; c < cylinders.n; c++) {
        const hash = keys[c * HASH_TABLES + t]!;
        if (hash < 0) continue;
        const unique = hash * DIRECTION_LEVELS + cylinders.directions[c]!;
        if (seen.has(unique)) continue;
        seen.add(unique);
        visit(t * KEYS + hash, cylinders.directions[c]!);
      }
    }
  }
}
