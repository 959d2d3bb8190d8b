import type { PostgresMigration } from '../migrate.js';

/**
 * Foundation schema (versions 1-9): settings, API keys, the audit log, and the heads that hand out gapless
 * sequence numbers. A head row is locked (UPDATE or FOR UPDATE) by every write that takes a number from it, so
 * numbers are handed out in commit order: a reader following by sequence never skips a row committed late.
 */
export const foundationMigrations: PostgresMigration[] = [
  {
    version: 1,
    name: 'settings, api keys, audit log, sequence heads, store facts',
    up: `
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        prefix TEXT NOT NULL UNIQUE,
        hash BYTEA NOT NULL,
        description TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE TABLE sequence_heads (
        name TEXT PRIMARY KEY,
        seq BIGINT NOT NULL,
        hash TEXT
      );
      INSERT INTO sequence_heads (name, seq, hash) VALUES ('audit', 0, '${'0'.repeat(64)}');
      CREATE TABLE audit_log (
        seq BIGINT PRIMARY KEY,
        time TEXT NOT NULL,
        request_id TEXT NOT NULL,
        method TEXT NOT NULL,
        route TEXT NOT NULL,
        key_id TEXT,
        auth_outcome TEXT NOT NULL,
        http_status INTEGER NOT NULL,
        result_status TEXT,
        failed_step TEXT,
        reason TEXT,
        scores TEXT,
        latency_ms DOUBLE PRECISION NOT NULL,
        mobile_masked TEXT,
        event TEXT,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE INDEX audit_log_time ON audit_log(time);
      CREATE INDEX audit_log_route ON audit_log(route, seq);
      CREATE INDEX audit_log_failed_step ON audit_log(failed_step, seq);
      CREATE INDEX audit_log_key ON audit_log(key_id, seq);
      CREATE INDEX audit_log_mobile ON audit_log(mobile_masked, seq);
      CREATE INDEX audit_log_status ON audit_log(http_status, seq);
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$;
      CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
      CREATE TABLE store_facts (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
];
