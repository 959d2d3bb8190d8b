import type { Migration } from '../migration.js';

/** Console schema (versions 40-49): local console accounts and their sessions. */
export const consoleMigrations: Migration[] = [
  {
    version: 40,
    name: 'console accounts and sessions',
    up: `
      CREATE TABLE console_users (
        id TEXT PRIMARY KEY,
        username TEXT NOT NULL UNIQUE COLLATE NOCASE,
        role TEXT NOT NULL CHECK (role IN ('operator', 'admin', 'auditor')),
        password_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        disabled_at TEXT
      );
      CREATE TABLE console_sessions (
        id_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES console_users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE INDEX console_sessions_user ON console_sessions(user_id);
    `,
  },
  {
    version: 41,
    name: 'audit log indexes for console filters',
    // The console filters the audit log by these columns and pages by seq; without them a rare filter scans 100k rows.
    up: `
      CREATE INDEX IF NOT EXISTS audit_log_failed_step ON audit_log(failed_step, seq);
      CREATE INDEX IF NOT EXISTS audit_log_key ON audit_log(key_id, seq);
      CREATE INDEX IF NOT EXISTS audit_log_mobile ON audit_log(mobile_masked, seq);
      CREATE INDEX IF NOT EXISTS audit_log_status ON audit_log(http_status, seq);
    `,
  },
];
