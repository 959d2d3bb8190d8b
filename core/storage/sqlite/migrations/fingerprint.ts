import type { Migration } from '../migration.js';

/** Fingerprint schema (versions 10-19). */
export const fingerprintMigrations: Migration[] = [
  {
    version: 10,
    name: 'fingerprint enrollments and 1:N vector index',
    // Templates are AES-256-GCM sealed; the vector (256 floats, see core/fingerprint/index/embedding.ts)
    // is a pair histogram that cannot be turned back into minutiae or an image.
    up: `
      CREATE TABLE fingerprint_enrollments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        mobile TEXT NOT NULL UNIQUE,
        template BLOB NOT NULL,
        model_version TEXT NOT NULL,
        embedding_version INTEGER NOT NULL,
        quality REAL NOT NULL,
        minutiae_count INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX fingerprint_enrollments_model ON fingerprint_enrollments(model_version);
      CREATE VIRTUAL TABLE fingerprint_vectors USING vec0(embedding float[256] distance_metric=cosine);
    `,
  },
  {
    version: 11,
    name: 'fingerprint vectors in 32 shards, sealed minutia cylinders per enrollment',
    // The vec0 table gains a partition key (shard = id % 32, see core/storage/sqlite/vector-index.ts): the
    // embeddings are copied as they are. The cylinders (core/fingerprint/index/cylinders.ts) are sealed with the
    // template key, which SQL cannot reach: enrollments left without them are rebuilt when the engine starts.
    up: `
      CREATE TABLE fingerprint_vectors_copy AS SELECT rowid AS id, embedding FROM fingerprint_vectors;
      DROP TABLE fingerprint_vectors;
      CREATE VIRTUAL TABLE fingerprint_vectors USING vec0(
        shard integer partition key,
        embedding float[256] distance_metric=cosine
      );
      INSERT INTO fingerprint_vectors (rowid, shard, embedding)
        SELECT id, id % 32, embedding FROM fingerprint_vectors_copy;
      DROP TABLE fingerprint_vectors_copy;
      ALTER TABLE fingerprint_enrollments ADD COLUMN cylinders BLOB;
    `,
  },
  {
    version: 12,
    name: 'fingerprint enrollment change feed',
    // The latest change of each enrollment by sequence (one row per enrollment id): what another process or replica
    // applies to its in-memory 1:N index. It starts empty; a reader loads everything first, then follows.
    up: `
      CREATE TABLE fingerprint_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        enrollment_id INTEGER NOT NULL UNIQUE,
        mobile TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('saved', 'removed')),
        at TEXT NOT NULL
      );
    `,
  },
];
