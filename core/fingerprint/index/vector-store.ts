import type { Database } from 'better-sqlite3';
import { EMBEDDING_DIMS } from './embedding.js';

/** One nearest-neighbour hit: the enrollment row id and its cosine distance (0 = identical). */
export interface VectorHit {
  id: number;
  distance: number;
}

/** sqlite-vec's KNN refuses k above this. */
export const MAX_KNN = 4096;

function toBlob(vector: Float32Array): Buffer {
  if (vector.length !== EMBEDDING_DIMS) throw new Error(`Embedding must have ${EMBEDDING_DIMS} dimensions`);
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/**
 * The 1:N vector index over the `fingerprint_vectors` vec0 table (cosine distance), keyed by enrollment id.
 * Callers run `upsert`/`remove` inside the same transaction as the enrollment row so both stay in step.
 */
export class VectorStore {
  private readonly insertStatement;
  private readonly deleteStatement;
  private readonly knnStatement;

  constructor(db: Database) {
    this.insertStatement = db.prepare('INSERT INTO fingerprint_vectors (rowid, embedding) VALUES (?, ?)');
    this.deleteStatement = db.prepare('DELETE FROM fingerprint_vectors WHERE rowid = ?');
    this.knnStatement = db.prepare(
      'SELECT rowid AS id, distance FROM fingerprint_vectors WHERE embedding MATCH ? AND k = ? ORDER BY distance',
    );
  }

  /** Insert or replace the vector of enrollment `id` (vec0 has no UPSERT). */
  upsert(id: number, vector: Float32Array): void {
    // vec0 only accepts integer rowids, and better-sqlite3 binds plain numbers as REAL.
    this.deleteStatement.run(BigInt(id));
    this.insertStatement.run(BigInt(id), toBlob(vector));
  }

  /** Remove the vector of enrollment `id`, if any. */
  remove(id: number): void {
    this.deleteStatement.run(BigInt(id));
  }

  /** The `k` nearest enrollments to `vector`, nearest first. */
  nearest(vector: Float32Array, k: number): VectorHit[] {
    const limit = Math.max(1, Math.min(MAX_KNN, Math.floor(k)));
    const rows = this.knnStatement.all(toBlob(vector), limit) as { id: number | bigint; distance: number }[];
    return rows.map((r) => ({ id: Number(r.id), distance: r.distance }));
  }
}
