import { CYLINDER_WORDS, popcount, similarityAt, type Cylinders } from './cylinders.js';

/** Cylinders per page: a print has fewer than this, so its run never straddles two pages. */
const PAGE_ITEMS = 1 << 16;
const OFFSET_MASK = PAGE_ITEMS - 1;

/** What the arena holds of a print: its cylinders and their minutia directions (not its star edges). */
export type HeldCylinders = Pick<Cylinders, 'n' | 'bits' | 'directions'>;

/**
 * The decrypted cylinders of the enrollments an index holds, by slot (slots.ts), in shared pages of typed arrays (a
 * 2 MB page of bits holds 65,536 cylinders) instead of five typed arrays and three objects an enrollment: 33 bytes a
 * cylinder (set-bit counts are recounted per comparison: 1/40 of its popcounts) and the mobile number.
 * Append-only: a released slot's run stays until `renumbered` copies the held ones.
 */
export class CylinderArena {
  private readonly bits: Uint32Array[] = [];
  /** Set-bit counts of the print being compared. */
  private readonly scratch = new Uint16Array(PAGE_ITEMS);
  private readonly directions: Uint8Array[] = [];
  private cylinderTop = PAGE_ITEMS;
  /** Per slot: where its run starts (page x PAGE_ITEMS + offset) and its length. */
  private cylinderAt = new Uint32Array(0);
  private cylinderCount = new Uint16Array(0);
  private mobiles: (string | undefined)[] = [];

  /** Hold `cylinders` for `slot`, which must be past every slot held so far. */
  append(slot: number, mobile: string, cylinders: HeldCylinders): void {
    if (slot < this.mobiles.length) throw new Error('Slots must come in order');
    if (slot >= this.cylinderAt.length) this.grow(Math.max(1024, Math.ceil(1.5 * (slot + 1))));
    const n = cylinders.n;
    if (this.cylinderTop + n > PAGE_ITEMS) {
      this.bits.push(new Uint32Array(PAGE_ITEMS * CYLINDER_WORDS));
      this.directions.push(new Uint8Array(PAGE_ITEMS));
      this.cylinderTop = 0;
    }
    const page = this.bits.length - 1;
    const at = this.cylinderTop;
    this.bits[page]!.set(cylinders.bits.subarray(0, n * CYLINDER_WORDS), at * CYLINDER_WORDS);
    this.directions[page]!.set(cylinders.directions.subarray(0, n), at);
    this.cylinderTop += n;
    this.cylinderAt[slot] = page * PAGE_ITEMS + at;
    this.cylinderCount[slot] = n;

    this.mobiles[slot] = mobile;
  }

  /** The mobile number held for `slot`, undefined once released. */
  mobile(slot: number): string | undefined {
    return this.mobiles[slot];
  }

  /** `cylinderSimilarity(probe, the cylinders of slot)`. */
  similarity(probe: Cylinders, slot: number): number {
    const at = this.cylinderAt[slot]!;
    const bits = this.bits[Math.floor(at / PAGE_ITEMS)]!;
    const first = at & OFFSET_MASK;
    const n = this.cylinderCount[slot]!;
    for (let c = 0, w = first * CYLINDER_WORDS; c < n; c++) {
      let total = 0;
      for (let k = 0; k < CYLINDER_WORDS; k++) total += popcount(bits[w++]!);
      this.scratch[c] = total;
    }
    return similarityAt(probe, bits, this.scratch, first, n);
  }

  /** The cylinders of `slot`, as views into the pages (valid until the next `renumbered`). */
  cylinders(slot: number): HeldCylinders {
    const at = this.cylinderAt[slot]!;
    const page = Math.floor(at / PAGE_ITEMS);
    const from = at & OFFSET_MASK;
    const n = this.cylinderCount[slot]!;
    return {
      n,
      bits: this.bits[page]!.subarray(from * CYLINDER_WORDS, (from + n) * CYLINDER_WORDS),
      directions: this.directions[page]!.subarray(from, from + n),
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
    return pages(this.bits) + pages(this.directions) + this.cylinderAt.length * 6 + this.mobiles.length * 48;
  }

  private grow(length: number): void {
    const grown = <T extends Uint32Array | Uint16Array>(a: T, make: (n: number) => T): T => {
      const out = make(length);
      out.set(a);
      return out;
    };
    this.cylinderAt = grown(this.cylinderAt, (n) => new Uint32Array(n));
    this.cylinderCount = grown(this.cylinderCount, (n) => new Uint16Array(n));
  }
}
