import type { PostgresMigration } from '../migrate.js';
import { consoleMigrations } from './console.js';
import { documentMigrations } from './document.js';
import { fingerprintMigrations } from './fingerprint.js';
import { foundationMigrations } from './foundation.js';
import { orchestratorMigrations } from './orchestrator.js';

/**
 * Every migration of the PostgreSQL store, in the order they apply. Areas own the same version ranges as in the
 * SQLite store (foundation 1-9, fingerprint 10-19, documents 20-29, orchestrator 30-39, console 40-49, face 50-59);
 * the schema starts at today's SQLite schema, so the SQLite-only upgrades (2, 11, 12, 21, 31, 41) have no
 * counterpart here.
 */
export const postgresMigrations: PostgresMigration[] = [
  ...foundationMigrations,
  ...fingerprintMigrations,
  ...documentMigrations,
  ...orchestratorMigrations,
  ...consoleMigrations,
].sort((a, b) => a.version - b.version);
