import type { Migration } from '../migration.js';

/** Face schema (versions 50-59). */
export const faceMigrations: Migration[] = [];
