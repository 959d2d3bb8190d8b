import type { Migration } from '../migration.js';

/** Orchestrator schema (versions 30-39). */
export const orchestratorMigrations: Migration[] = [
  {
    version: 30,
    name: 'orchestrator event outbox',
    // `seq` is the LAN consumers' cursor; `event_id` the UUID consumers de-duplicate on; the payload never holds images.
    up: `
      CREATE TABLE orchestrator_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL UNIQUE,
        subject TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at TEXT NOT NULL,
        published_at TEXT,
        publish_attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
      );
      CREATE INDEX orchestrator_outbox_unpublished ON orchestrator_outbox(seq) WHERE published_at IS NULL;
    `,
  },
  {
    version: 31,
    name: 'outbox claims',
    // A relay claims the rows it is publishing until this time, so several relays never send one row at once.
    up: 'ALTER TABLE orchestrator_outbox ADD COLUMN claimed_until TEXT;',
  },
];
