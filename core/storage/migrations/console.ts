import type { Migration } from '../migration.js';

/** Console schema (versions 40-49). */
export const consoleMigrations: Migration[] = [];
