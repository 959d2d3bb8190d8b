/**
 * Dense slot numbers for the enrollments an in-memory index holds. Postings, votes and cylinders are kept by slot,
 * so they need no per-enrollment object and stay in the order enrollments came in. A slot is never reused: an
 * enrollment put again gets a new one, and the released ones are dropped together by `compact`, which keeps order.
 */

/** Slots handed out before a compaction must stay below this (a posting holds the slot in 25 bits). */
export const MAX_SLOTS = 2 ** 25;

/** Enrollment id <-> slot. */
export class SlotTable {
  /** Enrollment id of each slot, NaN once released. */
  private ids = new Float64Array(1024);
  private readonly slotOf = new Map<number, number>();
  private used = 0;

  /** Slots handed out since the last compaction, released ones included. */
  get count(): number {
    return this.used;
  }

  /** Enrollments held. */
  get live(): number {
    return this.slotOf.size;
  }

  /** A new slot for enrollment `id`, which must not hold one. */
  assign(id: number): number {
    if (this.slotOf.has(id)) throw new Error(`Enrollment ${id} is held already`);
    if (this.used >= MAX_SLOTS) throw new Error('The in-memory index is full');
    if (this.used === this.ids.length) {
      const grown = new Float64Array(Math.ceil(this.ids.length * 1.5));
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.used] = id;
    this.slotOf.set(id, this.used);
    return this.used++;
  }

  /** The slot of enrollment `id`, if held. */
  slot(id: number): number | undefined {
    return this.slotOf.get(id);
  }

  /** The enrollment id in `slot`, NaN when released. */
  id(slot: number): number {
    return slot < this.used ? this.ids[slot]! : NaN;
  }

  /** Release the slot of enrollment `id`; returns it, or undefined when `id` was not held. */
  release(id: number): number | undefined {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return undefined;
    this.slotOf.delete(id);
    this.ids[slot] = NaN;
    return slot;
  }

  /** Number the held slots 0, 1, ... in their order; returns each old slot's new number (-1: released). */
  compact(): Int32Array {
    const renumber = new Int32Array(this.used).fill(-1);
    const ids = new Float64Array(Math.max(1024, this.slotOf.size));
    let next = 0;
    for (let slot = 0; slot < this.used; slot++) {
      const id = this.ids[slot]!;
      if (Number.isNaN(id)) continue;
      renumber[slot] = next;
      ids[next] = id;
      this.slotOf.set(id, next++);
    }
    this.ids = ids;
    this.used = next;
    return renumber;
  }

  /** Forget everything. */
  clear(): void {
    this.ids = new Float64Array(1024);
    this.slotOf.clear();
    this.used = 0;
  }

  /** Estimated bytes held (the id array and about 40 bytes a map entry). */
  bytes(): number {
    return this.ids.byteLength + 40 * this.slotOf.size;
  }
}
