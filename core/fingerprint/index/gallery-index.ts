import type { Cylinders } from './cylinders.js';
import { MinutiaHashIndex } from './minutia-hashes.js';
import { StarEdgeIndex } from './star-edges.js';

/** What the search keeps in memory of one enrollment. */
export interface IndexedPrint {
  mobile: string;
  cylinders: Cylinders;
}

/**
 * The in-memory side of the 1:N index, for enrollments of the engine's model version: each one's decrypted
 * minutia cylinders (the second stage compares them without a database read or a decryption per candidate) and
 * the minutia hash index built from them (the first stage). Filled from the sealed cylinders after the engine
 * starts (in the background; `loaded` is false until then) and kept in step with every enrollment, re-enrollment
 * and delete; never written anywhere.
 */
export class GalleryIndex {
  readonly hashes = new MinutiaHashIndex();
  readonly stars = new StarEdgeIndex();
  /** False while the engine is still filling the index: enrollments not held yet must be read from the database. */
  loaded = true;
  private readonly prints = new Map<number, IndexedPrint>();

  /** Enrollments held. */
  get size(): number {
    return this.prints.size;
  }

  /** Hold (or replace) enrollment `id`. */
  put(id: number, mobile: string, cylinders: Cylinders): void {
    this.delete(id);
    this.hashes.add(id, cylinders);
    this.stars.add(id, cylinders.stars);
    this.prints.set(id, { mobile, cylinders });
  }

  /** Forget enrollment `id`, if held. */
  delete(id: number): void {
    const held = this.prints.get(id);
    if (!held) return;
    this.hashes.remove(id, held.cylinders);
    this.stars.remove(id, held.cylinders.stars);
    this.prints.delete(id);
  }

  /** The held print of enrollment `id`. */
  get(id: number): IndexedPrint | undefined {
    return this.prints.get(id);
  }

  /** Give back spare memory after a bulk load. */
  compact(): void {
    this.hashes.compact();
    this.stars.compact();
  }

  /** Forget everything. */
  clear(): void {
    this.hashes.clear();
    this.stars.clear();
    this.prints.clear();
  }
}
