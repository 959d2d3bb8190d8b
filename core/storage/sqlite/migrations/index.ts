import type { Migration } from '../migration.js';
import { consoleMigrations } from './console.js';
import { documentMigrations } from './document.js';
import { faceMigrations } from './face.js';
import { fingerprintMigrations } from './fingerprint.js';
import { foundationMigrations } from './foundation.js';
import { orchestratorMigrations } from './orchestrator.js';

/** Every migration, in the order they apply. Each area owns a range of version numbers. */
export const allMigrations: Migration[] = [
  ...foundationMigrations,
  ...fingerprintMigrations,
  ...documentMigrations,
  ...orchestratorMigrations,
  ...consoleMigrations,
  ...faceMigrations,
].sort((a, b) => a.version - b.version);
