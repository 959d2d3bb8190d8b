import {
  DIRECTION_SECTORS,
  POSTING_DIRECTION_BITS,
  POSTING_DIRECTION_LEVELS,
  ROTATION_BINS,
} from './rotation-votes.js';

/**
 * The buckets of a first-stage index, compact: no object or typed array per bucket. A bucket (key, direction sector)
 * holds postings (slot, minutia direction) in the order they came, which is ascending slot order (slots.ts), coded as
 * the gap from the previous posting's slot times TAGS plus the direction within the sector, in 7-bit groups (one byte
 * for a gap below 16, two below 2,048): about 1.6 bytes a posting at 100k enrollments instead of 4 plus the objects.
 * The bytes go into a chain of blocks (16, 32, 64, 128, then 256 bytes, each starting with the next one's address and
 * the bytes it leaves unused: a posting never straddles two blocks) cut from 1 MB pages, so a bucket grows without
 * copying. Removal is by count: `discount` lowers a bucket's live
 * count and the index stops ranking the released slot; `renumbered` drops the released postings.
 */

const SECTOR_BITS = Math.log2(DIRECTION_SECTORS);
/** Bits of a posting's direction within its sector. */
const TAG_BITS = POSTING_DIRECTION_BITS - SECTOR_BITS;
const TAG_MASK = (1 << TAG_BITS) - 1;
const PAGE_BITS = 20;
const PAGE = 1 << PAGE_BITS;
const OFFSET_MASK = PAGE - 1;
/** Addresses are 32-bit: at most 4 GB of postings. */
const MAX_PAGES = 2 ** (32 - PAGE_BITS);
const BLOCK_BYTES = [16, 32, 64, 128];
const LAST_CLASS = BLOCK_BYTES.length - 1;
/** Each block starts with the address of the next one (a multiple of 16) plus its own unused bytes at the end (< 4). */
const LINK_BYTES = 4;
const SLACK_MASK = 15;
/** Per-bucket fields, FIELDS words a bucket in chunks of CHUNK buckets (no array to regrow and copy). */
const CHUNK_BITS = 13;
const CHUNK_MASK = (1 << CHUNK_BITS) - 1;
const FIELDS = 5;
/** Fields: first block; next byte to write; last block's end + its bucket's blocks (to 15); live count; last slot. */
const HEAD = 0;
const WRITE = 1;
const END = 2;
const LIVE = 3;
const LAST = 4;
/** A coded posting takes at most 4 bytes of 7 bits. */
const MAX_VALUE = 2 ** 28;

/** Postings of many buckets, in byte-coded chains. */
export class PostingLists {
  /** Group of DIRECTION_SECTORS buckets of each key, -1 until the key's first posting. */
  private readonly directory: Int32Array;
  private groups = 0;
  private readonly meta: Uint32Array[] = [];
  private readonly pages: Uint8Array[] = [];
  private readonly links: Uint32Array[] = [];
  private top = 0;

  /** Lists for bucket keys 0 .. keys - 1, each split into DIRECTION_SECTORS buckets. */
  constructor(readonly keys: number) {
    this.directory = new Int32Array(keys).fill(-1);
  }

  /** The bucket of `key` for direction sector `sector`, or -1 when the key has none. */
  bucket(key: number, sector: number): number {
    const group = this.directory[key]!;
    return group < 0 ? -1 : group * DIRECTION_SECTORS + sector;
  }

  /** Live postings of bucket `b` (0 for -1). */
  size(b: number): number {
    return b < 0 ? 0 : this.meta[b >>> CHUNK_BITS]![(b & CHUNK_MASK) * FIELDS + LIVE]!;
  }

  /** Append the posting of `slot` for a minutia of direction `level` under `key`; slots come in ascending order. */
  add(key: number, level: number, slot: number): void {
    const b = this.ensureBucket(key, level >> TAG_BITS);
    const m = this.meta[b >>> CHUNK_BITS]!;
    const r = (b & CHUNK_MASK) * FIELDS;
    if (m[r + HEAD] === 0) {
      const block = this.allocate(0);
      m[r + HEAD] = block;
      m[r + WRITE] = block + LINK_BYTES;
      m[r + END] = block + BLOCK_BYTES[0]! + 1;
    } else if (slot < m[r + LAST]!) throw new Error('Postings must come in slot order');
    let value = (slot - m[r + LAST]!) * (TAG_MASK + 1) + (level & TAG_MASK);
    if (value >= MAX_VALUE) throw new Error('Slot out of range');
    m[r + LAST] = slot;
    m[r + LIVE]!++;
    const length = value < 1 << 7 ? 1 : value < 1 << 14 ? 2 : value < 1 << 21 ? 3 : 4;
    let at = m[r + WRITE]!;
    if (at + length > m[r + END]! - (m[r + END]! & SLACK_MASK)) at = this.chain(m, r, at);
    const page = this.pages[at >>> PAGE_BITS]!;
    let offset = at & OFFSET_MASK;
    for (let i = 1; i < length; i++) {
      page[offset++] = (value & 127) | 128;
      value >>>= 7;
    }
    page[offset] = value;
    m[r + WRITE] = at + length;
  }

  /** One posting under `key` for direction `level` belongs to a released slot: it no longer counts. */
  discount(key: number, level: number): void {
    const b = this.bucket(key, level >> TAG_BITS);
    if (b < 0) return;
    const m = this.meta[b >>> CHUNK_BITS]!;
    const r = (b & CHUNK_MASK) * FIELDS + LIVE;
    if (m[r]! > 0) m[r]!--;
  }

  /**
   * Every posting of bucket `b` votes `weight` for its slot, on the turn from the probe minutia's `direction` to the
   * posting's, split over the two nearest of the slot's ROTATION_BINS bins in `votes`.
   */
  castVotes(votes: Float32Array, b: number, direction: number, weight: number): void {
    const binScale = ROTATION_BINS / POSTING_DIRECTION_LEVELS;
    const sectorLevel = (b % DIRECTION_SECTORS) << TAG_BITS;
    let slot = 0;
    // The hottest loop of the 1:N first stage: one call per block, the postings decoded inline.
    this.forEachBlock(b, (page, start, end) => {
      for (let at = start; at < end;) {
        let byte = page[at++]!;
        let value = byte & 127;
        for (let shift = 7; byte > 127; shift += 7) {
          byte = page[at++]!;
          value |= (byte & 127) << shift;
        }
        slot += value >>> TAG_BITS;
        const turn =
          (((sectorLevel | (value & TAG_MASK)) - direction + POSTING_DIRECTION_LEVELS) %
            POSTING_DIRECTION_LEVELS) *
          binScale;
        const b0 = turn | 0;
        const base = slot * ROTATION_BINS;
        const share = turn - b0;
        votes[base + b0]! += weight * (1 - share);
        votes[base + ((b0 + 1) % ROTATION_BINS)]! += weight * share;
      }
    });
  }

  /** Every posting of bucket `b` (released ones too), in order: its slot and direction. */
  forEach(b: number, visit: (slot: number, level: number) => void): void {
    const sectorLevel = (b % DIRECTION_SECTORS) << TAG_BITS;
    let slot = 0;
    this.forEachBlock(b, (page, start, end) => {
      for (let at = start; at < end;) {
        let byte = page[at++]!;
        let value = byte & 127;
        for (let shift = 7; byte > 127; shift += 7) {
          byte = page[at++]!;
          value |= (byte & 127) << shift;
        }
        slot += value >>> TAG_BITS;
        visit(slot, sectorLevel | (value & TAG_MASK));
      }
    });
  }

  /** The blocks of bucket `b` in order: each one's page and the byte range of its postings (links excluded). */
  private forEachBlock(b: number, visit: (page: Uint8Array, start: number, end: number) => void): void {
    const m = this.meta[b >>> CHUNK_BITS]!;
    const r = (b & CHUNK_MASK) * FIELDS;
    const stop = m[r + WRITE]!;
    for (let block = m[r + HEAD]!, cls = 0; block !== 0; cls = Math.min(cls + 1, LAST_CLASS)) {
      const header = this.links[block >>> PAGE_BITS]![(block & OFFSET_MASK) >>> 2]!;
      const start = block & OFFSET_MASK;
      const tail = stop > block && stop <= block + BLOCK_BYTES[cls]!;
      const end = tail ? start + (stop - block) : start + BLOCK_BYTES[cls]! - (header & SLACK_MASK);
      visit(this.pages[block >>> PAGE_BITS]!, start + LINK_BYTES, end);
      block = tail ? 0 : header - (header & SLACK_MASK);
    }
  }

  /** Count out every posting of a slot marked in `released` (a one-pass alternative to `discount`). */
  discountSlots(released: Uint8Array): void {
    for (let b = 0; b < this.groups * DIRECTION_SECTORS; b++) {
      let dropped = 0;
      this.forEach(b, (slot) => {
        if (released[slot] === 1) dropped++;
      });
      this.meta[b >>> CHUNK_BITS]![(b & CHUNK_MASK) * FIELDS + LIVE]! -= dropped;
    }
  }

  /** New lists holding the postings of the slots `renumber` keeps (>= 0), under their new numbers, in order. */
  renumbered(renumber: Int32Array): PostingLists {
    const next = new PostingLists(this.keys);
    for (let key = 0; key < this.keys; key++) {
      for (let sector = 0; sector < DIRECTION_SECTORS; sector++) {
        const b = this.bucket(key, sector);
        if (b < 0) break;
        this.forEach(b, (slot, level) => {
          const kept = renumber[slot]!;
          if (kept >= 0) next.add(key, level, kept);
        });
      }
    }
    return next;
  }

  /** Bytes held: pages, per-bucket arrays and the key directory. */
  bytes(): number {
    return (
      this.pages.length * PAGE + this.meta.length * (CHUNK_MASK + 1) * FIELDS * 4 + this.directory.byteLength
    );
  }

  private ensureBucket(key: number, sector: number): number {
    let group = this.directory[key]!;
    if (group < 0) {
      group = this.groups++;
      this.directory[key] = group;
      if ((this.groups * DIRECTION_SECTORS - 1) >>> CHUNK_BITS >= this.meta.length)
        this.meta.push(new Uint32Array((CHUNK_MASK + 1) * FIELDS));
    }
    return group * DIRECTION_SECTORS + sector;
  }

  /** A block of class `cls`: its address (never 0, which marks "no block"). */
  private allocate(cls: number): number {
    const size = BLOCK_BYTES[cls]!;
    if (this.pages.length === 0 || this.top + size > this.pages.length * PAGE) {
      if (this.pages.length === MAX_PAGES) throw new Error('The in-memory index is full');
      const page = new Uint8Array(PAGE);
      this.pages.push(page);
      this.links.push(new Uint32Array(page.buffer));
      // Address 0 stays unused.
      this.top = (this.pages.length - 1) * PAGE + (this.pages.length === 1 ? BLOCK_BYTES[0]! : 0);
    }
    const block = this.top;
    this.top += size;
    return block;
  }

  /** Chain a block to the bucket at `m[r]`, whose last block is full from `at` on: the new block's first free byte. */
  private chain(m: Uint32Array, r: number, at: number): number {
    const count = m[r + END]! & SLACK_MASK;
    const end = m[r + END]! - count;
    const block = this.allocate(Math.min(count, LAST_CLASS));
    const full = end - BLOCK_BYTES[Math.min(count - 1, LAST_CLASS)]!;
    this.links[full >>> PAGE_BITS]![(full & OFFSET_MASK) >>> 2] = block + (end - at);
    m[r + END] = block + BLOCK_BYTES[Math.min(count, LAST_CLASS)]! + Math.min(SLACK_MASK, count + 1);
    return block + LINK_BYTES;
  }
}
