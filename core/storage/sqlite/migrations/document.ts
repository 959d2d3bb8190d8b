import type { Migration } from '../migration.js';

/**
 * Document schema (versions 20-29): security-feature profiles (JSON definitions, editable in the console) and
 * operator-registered reference marks with their precomputed ORB keypoints. Mark images are printed marks (coat
 * of arms, seal, logo), never ID-card images.
 */
export const documentMigrations: Migration[] = [
  {
    version: 20,
    name: 'document profiles and reference marks',
    up: `
      CREATE TABLE document_profiles (
        name TEXT PRIMARY KEY,
        definition TEXT NOT NULL,
        built_in INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE document_reference_marks (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        preview_png BLOB NOT NULL,
        keypoint_count INTEGER NOT NULL,
        points BLOB NOT NULL,
        scales BLOB NOT NULL,
        descriptors BLOB NOT NULL,
        descriptor_version INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 21,
    name: 'reference mark templates',
    // A small grey picture of each mark for the photometric check that tells look-alike emblems apart.
    up: `
      ALTER TABLE document_reference_marks ADD COLUMN template BLOB;
      ALTER TABLE document_reference_marks ADD COLUMN template_width INTEGER;
      ALTER TABLE document_reference_marks ADD COLUMN template_height INTEGER;
    `,
  },
];
