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
];
