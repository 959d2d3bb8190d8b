import type { VectorHit } from '../../contracts/enrollment-repository.js';
import type { Database } from './database.js';

/** Dimensions of the stored vectors (the vec0 table is declared float[256]). */
export const VECTOR_DIMS = 256;
/** sqlite-vec's KNN refuses k above this (per query, so per shard). */
export const MAX_KNN = 4096;
/**
 * Vectors are spread over this many partitions of the vec0 table (shard = id mod SHARDS) and a search asks each
 * shard for its share of the candidates. sqlite-vec's top-k merge grows with k: at 100k vectors one query for
 * 4000 neighbours takes ~165 ms, 32 shard queries for 125 each ~40 ms, for (almost) the same candidates.
 */
export const SHARDS = 32;

function toBlob(vector: Float32Array): Buffer {
  if (vector.length !== VECTOR_DIMS) throw new Error(`Embedding must have ${VECTOR_DIMS} dimensions`);
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/**
 * The 1:N vector index over the `fingerprint_vectors` vec0 table (cosine distance), keyed by enrollment id.
 * Callers run `upsert`/`remove` inside the same transaction as the enrollment row so both stay in step.
 */
export class VectorIndex {
  private readonly insertStatement;
  private readonly deleteStatement;
  private readonly knnStatement;

  constructor(db: Database) {
    this.insertStatement = db.prepare(
      'INSERT INTO fingerprint_vectors (rowid, shard, embedding) VALUES (?, ?, ?)',
    );
    this.deleteStatement = db.prepare('DELETE FROM fingerprint_vectors WHERE rowid = ?');
    this.knnStatement = db.prepare(
      'SELECT rowid AS id, distance FROM fingerprint_vectors WHERE embedding MATCH ? AND k = ? AND shard = ?',
    );
  }

  /** Insert or replace the vector of enrollment `id` (vec0 has no UPSERT). */
  upsert(id: number, vector: Float32Array): void {
    // vec0 only accepts integer rowids, and better-sqlite3 binds plain numbers as REAL.
    this.deleteStatement.run(BigInt(id));
    this.insertStatement.run(BigInt(id), BigInt(id % SHARDS), toBlob(vector));
  }

  /** Remove the vector of enrollment `id`, if any. */
  remove(id: number): void {
    this.deleteStatement.run(BigInt(id));
  }

  /**
   * About the `k` nearest enrollments to `vector`, nearest first: each shard gives its nearest ceil(k / SHARDS)
   * plus a margin of 25% (shards hold a random share of the gallery, so the global top k is spread over them
   * about evenly), and the union is cut to k.
   */
  nearest(vector: Float32Array, k: number): VectorHit[] {
    const want = Math.max(1, Math.floor(k));
    const perShard = Math.min(MAX_KNN, Math.ceil((1.25 * want) / SHARDS) + 1);
    const blob = toBlob(vector);
    const hits: VectorHit[] = [];
    for (let shard = 0; shard < SHARDS; shard++) {
      const rows = this.knnStatement.all(blob, perShard, BigInt(shard)) as {
        id: number | bigint;
        distance: number;
      }[];
      for (const r of rows) hits.push({ id: Number(r.id), distance: r.distance });
    }
    hits.sort((a, b) => a.distance - b.distance || a.id - b.id);
    return hits.slice(0, want);
  }
}
