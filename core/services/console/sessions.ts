import { createHash, randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { ConsoleUser, ConsoleRole } from './accounts.js';

/** How long a console session lasts without signing in again. */
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

/** The cookie that carries the session id. */
export const SESSION_COOKIE = 'idv_console_session';

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

interface SessionUserRow {
  id: string;
  username: string;
  role: ConsoleRole;
  created_at: string;
  disabled_at: string | null;
  expires_at: string;
}

/** Console sessions: a random 256-bit id given to the browser once, stored only as its SHA-256. */
export class ConsoleSessions {
  constructor(
    private readonly db: Database,
    private readonly ttlMs = SESSION_TTL_MS,
  ) {}

  /** Open a session for an account; returns the token for the cookie and its expiry. */
  create(userId: string): { token: string; expiresAt: Date } {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    const expiresAt = new Date(now + this.ttlMs);
    this.db.prepare('DELETE FROM console_sessions WHERE expires_at < ?').run(new Date(now).toISOString());
    this.db
      .prepare('INSERT INTO console_sessions (id_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
      .run(hashToken(token), userId, new Date(now).toISOString(), expiresAt.toISOString());
    return { token, expiresAt };
  }

  /** The enabled account behind an unexpired session token, or undefined. */
  resolve(token: string): ConsoleUser | undefined {
    const row = this.db
      .prepare(
        `SELECT u.id, u.username, u.role, u.created_at, u.disabled_at, s.expires_at
         FROM console_sessions s JOIN console_users u ON u.id = s.user_id WHERE s.id_hash = ?`,
      )
      .get(hashToken(token)) as SessionUserRow | undefined;
    if (!row || row.disabled_at !== null || Date.parse(row.expires_at) <= Date.now()) return undefined;
    return { id: row.id, username: row.username, role: row.role, createdAt: row.created_at, disabled: false };
  }

  /** End one session (logout). */
  destroy(token: string): void {
    this.db.prepare('DELETE FROM console_sessions WHERE id_hash = ?').run(hashToken(token));
  }

  /** End every session of an account (disabled, demoted or password changed). */
  destroyAllFor(userId: string): void {
    this.db.prepare('DELETE FROM console_sessions WHERE user_id = ?').run(userId);
  }
}
