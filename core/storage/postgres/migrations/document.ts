import type { PostgresMigration } from '../migrate.js';

/** Document schema (versions 20-29): security-feature profiles and registered reference marks (never ID cards). */
export const documentMigrations: PostgresMigration[] = [
  {
    version: 20,
    name: 'document profiles and reference marks',
    up: `
      CREATE TABLE document_profiles (
        name TEXT PRIMARY KEY,
        definition TEXT NOT NULL,
        built_in BOOLEAN NOT NULL DEFAULT FALSE,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE document_reference_marks (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        preview_png BYTEA NOT NULL,
        keypoint_count INTEGER NOT NULL,
        points BYTEA NOT NULL,
        scales BYTEA NOT NULL,
        descriptors BYTEA NOT NULL,
        descriptor_version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        template BYTEA,
        template_width INTEGER,
        template_height INTEGER
      );
    `,
  },
];
