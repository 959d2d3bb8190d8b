import type { Migration } from '../migration.js';

/** Orchestrator schema (versions 30-39). */
export const orchestratorMigrations: Migration[] = [];
