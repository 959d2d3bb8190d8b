import { CylinderArena } from './cylinder-arena.js';
import type { Cylinders } from './cylinders.js';
import { MinutiaHashIndex } from './minutia-hashes.js';
import { RotationVotes } from './rotation-votes.js';
import { SlotTable } from './slots.js';
import { StarEdgeIndex } from './star-edges.js';

/** What the search compares of one enrollment read from the database (the in-memory index keeps its own copy). */
export interface IndexedPrint {
  mobile: string;
  cylinders: Cylinders;
}

/**
 * The in-memory side of the 1:N index, for enrollments of the engine's model version: each one's decrypted
 * minutia cylinders (the second stage compares them without a database read or a decryption per candidate) and
 * the minutia hash and star-edge indexes built from them (the first stage), all by slot (slots.ts) in shared typed
 * arrays: about 3.1 kB an enrollment of 40 minutiae (cylinder-arena.ts, posting-lists.ts). Filled from the sealed
 * cylinders after the engine starts (in the background; `loaded` is false until then) and kept in step with every
 * enrollment, re-enrollment and delete; never written anywhere.
 */
export class GalleryIndex {
  private readonly slots = new SlotTable();
  /** One vote buffer for both minutia indexes: a search reads the hash votes before it queries the star edges. */
  private readonly votes = new RotationVotes();
  readonly hashes = new MinutiaHashIndex(this.slots, this.votes);
  readonly stars = new StarEdgeIndex(this.slots, this.votes);
  private arena = new CylinderArena();
  /** False while the engine is still filling the index: enrollments not held yet must be read from the database. */
  loaded = true;

  /** Enrollments held. */
  get size(): number {
    return this.slots.live;
  }

  /** Hold (or replace) enrollment `id`. */
  put(id: number, mobile: string, cylinders: Cylinders): void {
    this.delete(id);
    this.arena.append(this.slots.assign(id), mobile, cylinders);
    this.hashes.add(id, cylinders);
    this.stars.add(id, cylinders.stars);
  }

  /** Forget enrollment `id`, if held. */
  delete(id: number): void {
    const slot = this.slots.slot(id);
    if (slot === undefined) return;
    this.hashes.remove(id, this.arena.cylinders(slot));
    this.stars.forget(id);
    this.arena.release(slot);
    this.slots.release(id);
    // Released slots keep their postings and cylinders until they are a fifth of the index (or 1,000).
    if (this.slots.count - this.slots.live > Math.max(1000, this.slots.live / 4)) this.renumber();
  }

  /** Whether enrollment `id` is held. */
  has(id: number): boolean {
    return this.slots.slot(id) !== undefined;
  }

  /** The mobile number of held enrollment `id`. */
  mobile(id: number): string | undefined {
    const slot = this.slots.slot(id);
    return slot === undefined ? undefined : this.arena.mobile(slot);
  }

  /** `cylinderSimilarity(probe, the held cylinders of enrollment id)`, or undefined when `id` is not held. */
  similarity(probe: Cylinders, id: number): number | undefined {
    const slot = this.slots.slot(id);
    return slot === undefined ? undefined : this.arena.similarity(probe, slot);
  }

  /** Drop what deleted enrollments left (after a bulk load). */
  compact(): void {
    if (this.slots.count > this.slots.live) this.renumber();
  }

  /** Forget everything. */
  clear(): void {
    this.hashes.clear();
    this.stars.clear();
    this.slots.clear();
    this.arena = new CylinderArena();
  }

  /** Estimated bytes held by the index (cylinders, postings, slot table, vote buffers). */
  bytes(): number {
    return (
      this.arena.bytes() + this.hashes.bytes() + this.stars.bytes() + this.slots.bytes() + this.votes.bytes()
    );
  }

  private renumber(): void {
    const renumber = this.slots.compact();
    this.arena = this.arena.renumbered(renumber);
    this.hashes.renumber(renumber);
    this.stars.renumber(renumber);
  }
}
