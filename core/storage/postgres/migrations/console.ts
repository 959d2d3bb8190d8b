import type { PostgresMigration } from '../migrate.js';

/** Console schema (versions 40-49): local console accounts (names unique regardless of case) and sessions. */
export const consoleMigrations: PostgresMigration[] = [
  {
    version: 40,
    name: 'console accounts and sessions',
    up: `
      CREATE TABLE console_users (
        id TEXT PRIMARY KEY,
        username TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('operator', 'admin', 'auditor')),
        password_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        disabled_at TEXT
      );
      CREATE UNIQUE INDEX console_users_username ON console_users (lower(username));
      CREATE TABLE console_sessions (
        id_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES console_users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE INDEX console_sessions_user ON console_sessions(user_id);
    `,
  },
];
