import type { Migration } from '../migration.js';

/** Fingerprint schema (versions 10-19). */
export const fingerprintMigrations: Migration[] = [];
