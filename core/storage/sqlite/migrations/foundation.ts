import type { Migration } from '../migration.js';

/** Foundation schema: settings, API keys, audit log (versions 1-9). */
export const foundationMigrations: Migration[] = [
  {
    version: 1,
    name: 'settings, api keys, audit log',
    up: `
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        prefix TEXT NOT NULL UNIQUE,
        hash BLOB NOT NULL,
        description TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE TABLE audit_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
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
        latency_ms REAL NOT NULL,
        mobile_masked TEXT,
        event TEXT,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE INDEX audit_log_time ON audit_log(time);
      CREATE INDEX audit_log_route ON audit_log(route, seq);
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
    `,
  },
  {
    version: 2,
    name: 'one threshold setting per engine',
    // The console stored {oneInN, threshold} under <engine>.threshold beside the number under
    // <engine>.thresholdOneInN; the fingerprint engine read the first, the face engine the second. Each engine keeps
    // the value it read (the other where that is missing) under <engine>.thresholdOneInN alone.
    up: `
      INSERT INTO settings (key, value, updated_at)
        SELECT 'fingerprint.thresholdOneInN', CAST(json_extract(value, '$.oneInN') AS TEXT), updated_at
        FROM settings
        WHERE key = 'fingerprint.threshold' AND json_valid(value)
          AND json_type(value, '$.oneInN') IN ('integer', 'real') AND json_extract(value, '$.oneInN') > 0
        ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at;
      INSERT OR IGNORE INTO settings (key, value, updated_at)
        SELECT 'face.thresholdOneInN', CAST(json_extract(value, '$.oneInN') AS TEXT), updated_at
        FROM settings
        WHERE key = 'face.threshold' AND json_valid(value)
          AND json_type(value, '$.oneInN') IN ('integer', 'real') AND json_extract(value, '$.oneInN') > 0;
      DELETE FROM settings WHERE key IN ('face.threshold', 'fingerprint.threshold');
    `,
  },
  {
    version: 3,
    name: 'store facts',
    // Facts about the store itself, e.g. the template key's check value (an HMAC, never the key).
    up: `
      CREATE TABLE store_facts (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
];
