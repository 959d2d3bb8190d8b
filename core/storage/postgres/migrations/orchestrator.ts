import type { PostgresMigration } from '../migrate.js';

/** Orchestrator schema (versions 30-39): the event outbox; `seq` is the LAN consumers' cursor, handed out in commit order. */
export const orchestratorMigrations: PostgresMigration[] = [
  {
    version: 30,
    name: 'orchestrator event outbox with claims',
    up: `
      CREATE TABLE orchestrator_outbox (
        seq BIGINT PRIMARY KEY,
        event_id TEXT NOT NULL UNIQUE,
        subject TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at TEXT NOT NULL,
        published_at TEXT,
        publish_attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        claimed_until TEXT
      );
      CREATE INDEX orchestrator_outbox_unpublished ON orchestrator_outbox(seq) WHERE published_at IS NULL;
      INSERT INTO sequence_heads (name, seq) VALUES ('orchestrator_outbox', 0);
    `,
  },
];
