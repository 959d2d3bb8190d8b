import type { VectorHit } from '../../contracts/enrollment-repository.js';

/** Dimensions of the stored vectors. */
export const VECTOR_DIMS = 256;

/**
 * The 1:N vectors of every enrollment in memory, as unit vectors in one Float32Array, searched exhaustively by
 * cosine distance (1 - dot product): exact, and at 100k vectors one scan is 25.6 M multiply-adds. PostgreSQL has no
 * vector index here (Debian 12 ships no pgvector), and every replica holds its gallery in memory anyway.
 */
export class VectorCache {
  private data = new Float32Array(0);
  private ids = new Float64Array(0);
  private readonly slots = new Map<number, number>();

  /** Vectors held. */
  get size(): number {
    return this.slots.size;
  }

  /** Hold (or replace) the vector of enrollment `id`, from its stored bytes (256 little-endian float32). */
  put(id: number, stored: Uint8Array): void {
    if (stored.byteLength !== VECTOR_DIMS * 4)
      throw new Error(`Embedding must have ${VECTOR_DIMS} dimensions`);
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.slots.size;
      this.grow(slot + 1);
      this.slots.set(id, slot);
      this.ids[slot] = id;
    }
    const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
    const base = slot * VECTOR_DIMS;
    let norm = 0;
    for (let d = 0; d < VECTOR_DIMS; d++) {
      const x = view.getFloat32(d * 4, true);
      this.data[base + d] = x;
      norm += x * x;
    }
    // A zero vector stays zero: its distance to anything is 1, as for orthogonal vectors.
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let d = 0; d < VECTOR_DIMS; d++) this.data[base + d] = this.data[base + d]! * scale;
  }

  /** Forget enrollment `id` (the last slot moves into its place). */
  delete(id: number): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    const last = this.slots.size - 1;
    if (slot !== last) {
      const lastId = this.ids[last]!;
      this.data.copyWithin(slot * VECTOR_DIMS, last * VECTOR_DIMS, (last + 1) * VECTOR_DIMS);
      this.ids[slot] = lastId;
      this.slots.set(lastId, slot);
    }
    this.slots.delete(id);
  }

  /** Forget everything. */
  clear(): void {
    this.slots.clear();
  }

  /** The `k` nearest vectors by cosine distance, nearest first (ties by id). */
  nearest(query: Float32Array, k: number): VectorHit[] {
    const n = this.slots.size;
    const want = Math.min(n, Math.max(1, Math.floor(k)));
    if (n === 0) return [];
    if (query.length !== VECTOR_DIMS) throw new Error(`Embedding must have ${VECTOR_DIMS} dimensions`);
    let norm = 0;
    for (let d = 0; d < VECTOR_DIMS; d++) norm += query[d]! * query[d]!;
    const q = new Float32Array(VECTOR_DIMS);
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let d = 0; d < VECTOR_DIMS; d++) q[d] = query[d]! * scale;
    const distances = new Float32Array(n);
    const data = this.data;
    for (let i = 0, base = 0; i < n; i++, base += VECTOR_DIMS) {
      let a = 0;
      let b = 0;
      let c = 0;
      let e = 0;
      for (let d = 0; d < VECTOR_DIMS; d += 4) {
        a += data[base + d]! * q[d]!;
        b += data[base + d + 1]! * q[d + 1]!;
        c += data[base + d + 2]! * q[d + 2]!;
        e += data[base + d + 3]! * q[d + 3]!;
      }
      distances[i] = 1 - (a + b + c + e);
    }
    const cut = kthSmallest(distances, want);
    const hits: VectorHit[] = [];
    for (let i = 0; i < n; i++) {
      if (distances[i]! <= cut) hits.push({ id: this.ids[i]!, distance: distances[i]! });
    }
    hits.sort((x, y) => x.distance - y.distance || x.id - y.id);
    return hits.slice(0, want);
  }

  private grow(needed: number): void {
    if (needed * VECTOR_DIMS <= this.data.length) return;
    const capacity = Math.max(1024, needed * 2);
    const data = new Float32Array(capacity * VECTOR_DIMS);
    data.set(this.data);
    this.data = data;
    const ids = new Float64Array(capacity);
    ids.set(this.ids);
    this.ids = ids;
  }
}

/** The k-th smallest value (1-based) of `values`, by quickselect on a copy. */
export function kthSmallest(values: Float32Array, k: number): number {
  const a = Float32Array.from(values);
  let lo = 0;
  let hi = a.length - 1;
  const target = k - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return a[target]!;
  }
  return a[target]!;
}
