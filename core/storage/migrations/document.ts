import type { Migration } from '../migration.js';

/** Document schema (versions 20-29). */
export const documentMigrations: Migration[] = [];
