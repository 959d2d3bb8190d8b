import { CYLINDER_WORDS, similarityAt, type Cylinders } from './cylinders.js';

/** Cylinders (and star edges) per page: a print has fewer than this, so its run never straddles two pages. */
const PAGE_ITEMS = 1 << 16;
const OFFSET_MASK = PAGE_ITEMS - 1;

/**
 * The decrypted cylinders and star edges of the enrollments an index holds, by slot (slots.ts), in shared pages of
 * typed arrays (a 2 MB page of bits holds 65,536 cylinders) instead of five typed arrays and three objects an
 * enrollment: 32 + 3 bytes a cylinder, 3 bytes a star edge and the mobile number. Append-only: a released slot's
 * runs stay until `renumbered` copies the held ones.
 */
export class CylinderArena {
  private readonly bits: Uint32Array[] = [];
  private readonly counts: Uint16Array[] = [];
  private readonly directions: Uint8Array[] = [];
  private readonly edgeKeys: Uint16Array[] = [];
  private readonly edgeDirections: Uint8Array[] = [];
  private cylinderTop = PAGE_ITEMS;
  private edgeTop = PAGE_ITEMS;
  /** Per slot: where its runs start (page x PAGE_ITEMS + offset) and their lengths. */
  private cylinderAt = new Uint32Array(0);
  private cylinderCount = new Uint16Array(0);
  private edgeAt = new Uint32Array(0);
  private edgeCount = new Uint16Array(0);
  private mobiles: (string | undefined)[] = [];

  /** Hold `cylinders` for `slot`, which must be past every slot held so far. */
  append(slot: number, mobile: string, cylinders: Cylinders): void {
    if (slot < this.mobiles.length) throw new Error('Slots must come in order');
    if (slot >= this.cylinderAt.length) this.grow(Math.max(1024, Math.ceil(1.5 * (slot + 1))));
    const n = cylinders.n;
    if (this.cylinderTop + n > PAGE_ITEMS) {
      this.bits.push(new Uint32Array(PAGE_ITEMS * CYLINDER_WORDS));
      this.counts.push(new Uint16Array(PAGE_ITEMS));
      this.directions.push(new Uint8Array(PAGE_ITEMS));
      this.cylinderTop = 0;
    }
    const page = this.bits.length - 1;
    const at = this.cylinderTop;
    this.bits[page]!.set(cylinders.bits.subarray(0, n * CYLINDER_WORDS), at * CYLINDER_WORDS);
    this.counts[page]!.set(cylinders.counts.subarray(0, n), at);
    this.directions[page]!.set(cylinders.directions.subarray(0, n), at);
    this.cylinderTop += n;
    this.cylinderAt[slot] = page * PAGE_ITEMS + at;
    this.cylinderCount[slot] = n;

    const m = cylinders.stars.keys.length;
    if (this.edgeTop + m > PAGE_ITEMS) {
      this.edgeKeys.push(new Uint16Array(PAGE_ITEMS));
      this.edgeDirections.push(new Uint8Array(PAGE_ITEMS));
      this.edgeTop = 0;
    }
    const edgePage = this.edgeKeys.length - 1;
    this.edgeKeys[edgePage]!.set(cylinders.stars.keys, this.edgeTop);
    this.edgeDirections[edgePage]!.set(cylinders.stars.directions, this.edgeTop);
    this.edgeAt[slot] = edgePage * PAGE_ITEMS + this.edgeTop;
    this.edgeCount[slot] = m;
    this.edgeTop += m;
    this.mobiles[slot] = mobile;
  }

  /** The mobile number held for `slot`, undefined once released. */
  mobile(slot: number): string | undefined {
    return this.mobiles[slot];
  }

  /** `cylinderSimilarity(probe, the cylinders of slot)`. */
  similarity(probe: Cylinders, slot: number): number {
    const at = this.cylinderAt[slot]!;
    const page = Math.floor(at / PAGE_ITEMS);
    return similarityAt(
      probe,
      this.bits[page]!,
      this.counts[page]!,
      at & OFFSET_MASK,
      this.cylinderCount[slot]!,
    );
  }

  /** The cylinders of `slot`, as views into the pages (valid until the next `renumbered`). */
  cylinders(slot: number): Cylinders {
    const at = this.cylinderAt[slot]!;
    const page = Math.floor(at / PAGE_ITEMS);
    const from = at & OFFSET_MASK;
    const n = this.cylinderCount[slot]!;
    const edgeAt = this.edgeAt[slot]!;
    const edgePage = Math.floor(edgeAt / PAGE_ITEMS);
    const edgeFrom = edgeAt & OFFSET_MASK;
    const m = this.edgeCount[slot]!;
    return {
      n,
      bits: this.bits[page]!.subarray(from * CYLINDER_WORDS, (from + n) * CYLINDER_WORDS),
      counts: this.counts[page]!.subarray(from, from + n),
      directions: this.directions[page]!.subarray(from, from + n),
      stars: {
        keys: this.edgeKeys[edgePage]!.subarray(edgeFrom, edgeFrom + m),
        directions: this.edgeDirections[edgePage]!.subarray(edgeFrom, edgeFrom + m),
      },
    };
  }

  /** Forget the mobile number of `slot` (its runs stay until `renumbered`). */
  release(slot: number): void {
    this.mobiles[slot] = undefined;
  }

  /** A new arena holding the slots `renumber` keeps (>= 0) under their new numbers. */
  renumbered(renumber: Int32Array): CylinderArena {
    const next = new CylinderArena();
    renumber.forEach((slot, old) => {
      const mobile = this.mobiles[old];
      if (slot >= 0 && mobile !== undefined) next.append(slot, mobile, this.cylinders(old));
    });
    return next;
  }

  /** Bytes held: pages, per-slot arrays and about 40 bytes a mobile number. */
  bytes(): number {
    const pages = (arrays: ArrayBufferView[]): number => arrays.reduce((sum, a) => sum + a.byteLength, 0);
    return (
      pages(this.bits) +
      pages(this.counts) +
      pages(this.directions) +
      pages(this.edgeKeys) +
      pages(this.edgeDirections) +
      this.cylinderAt.length * 12 +
      this.mobiles.length * 48
    );
  }

  private grow(length: number): void {
    const grown = <T extends Uint32Array | Uint16Array>(a: T, make: (n: number) => T): T => {
      const out = make(length);
      out.set(a);
      return out;
    };
    this.cylinderAt = grown(this.cylinderAt, (n) => new Uint32Array(n));
    this.cylinderCount = grown(this.cylinderCount, (n) => new Uint16Array(n));
    this.edgeAt = grown(this.edgeAt, (n) => new Uint32Array(n));
    this.edgeCount = grown(this.edgeCount, (n) => new Uint16Array(n));
  }
}
