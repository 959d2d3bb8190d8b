import type {
  ConsoleAccountRepository,
  ConsoleSessionRecord,
  ConsoleSessionRepository,
  ConsoleUserChange,
  ConsoleUserRecord,
} from '../../contracts/console-repositories.js';
import { run, type Database } from './database.js';
import {
  consoleUserOf,
  sessionWithUserOf,
  type ConsoleUserRowData,
  type SessionUserRowData,
} from '../rows.js';

const ENABLED_ADMINS = "SELECT COUNT(*) AS n FROM console_users WHERE role = 'admin' AND disabled_at IS NULL";

/** Console accounts in `console_users` (usernames unique regardless of case). */
export class SqliteConsoleAccountRepository implements ConsoleAccountRepository {
  constructor(private readonly db: Database) {}

  insert(
    record: ConsoleUserRecord,
    options: { onlyIfNoAdmin?: boolean } = {},
  ): Promise<'created' | 'duplicate' | 'admin_exists'> {
    return run(() =>
      this.db
        .transaction(() => {
          if (options.onlyIfNoAdmin && this.enabledAdmins() > 0) return 'admin_exists' as const;
          const info = this.db
            .prepare(
              `INSERT OR IGNORE INTO console_users (id, username, role, password_hash, created_at, disabled_at)
               VALUES (?, ?, ?, ?, ?, ?)`,
            )
            .run(
              record.id,
              record.username,
              record.role,
              record.passwordHash,
              record.createdAt,
              record.disabledAt,
            );
          return info.changes === 0 ? ('duplicate' as const) : ('created' as const);
        })
        .immediate(),
    );
  }

  list(): Promise<ConsoleUserRecord[]> {
    return run(() =>
      (
        this.db
          .prepare('SELECT * FROM console_users ORDER BY created_at, username')
          .all() as ConsoleUserRowData[]
      ).map(consoleUserOf),
    );
  }

  get(id: string): Promise<ConsoleUserRecord | undefined> {
    return run(() => {
      const row = this.db.prepare('SELECT * FROM console_users WHERE id = ?').get(id) as
        ConsoleUserRowData | undefined;
      return row && consoleUserOf(row);
    });
  }

  findByUsername(username: string): Promise<ConsoleUserRecord | undefined> {
    return run(() => {
      const row = this.db.prepare('SELECT * FROM console_users WHERE username = ?').get(username) as
        ConsoleUserRowData | undefined;
      return row && consoleUserOf(row);
    });
  }

  hasEnabledAdmin(): Promise<boolean> {
    return run(() => this.enabledAdmins() > 0);
  }

  update(id: string, change: ConsoleUserChange): Promise<'updated' | 'not_found' | 'last_admin'> {
    return run(() =>
      this.db
        .transaction(() => {
          const current = this.db.prepare('SELECT * FROM console_users WHERE id = ?').get(id) as
            ConsoleUserRowData | undefined;
          if (!current) return 'not_found' as const;
          const role = change.role ?? current.role;
          const disabledAt = change.disabledAt === undefined ? current.disabled_at : change.disabledAt;
          const wasAdmin = current.role === 'admin' && current.disabled_at === null;
          const staysAdmin = role === 'admin' && disabledAt === null;
          if (wasAdmin && !staysAdmin && this.enabledAdmins() <= 1) return 'last_admin' as const;
          this.db
            .prepare('UPDATE console_users SET role = ?, disabled_at = ?, password_hash = ? WHERE id = ?')
            .run(role, disabledAt, change.passwordHash ?? current.password_hash, id);
          return 'updated' as const;
        })
        .immediate(),
    );
  }

  private enabledAdmins(): number {
    return (this.db.prepare(ENABLED_ADMINS).get() as { n: number }).n;
  }
}

/** Console sessions in `console_sessions` (the SHA-256 of the id only). */
export class SqliteConsoleSessionRepository implements ConsoleSessionRepository {
  constructor(private readonly db: Database) {}

  create(record: ConsoleSessionRecord): Promise<void> {
    return run(() => {
      this.db
        .transaction(() => {
          this.db.prepare('DELETE FROM console_sessions WHERE expires_at < ?').run(record.createdAt);
          this.db
            .prepare(
              'INSERT INTO console_sessions (id_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
            )
            .run(record.idHash, record.userId, record.createdAt, record.expiresAt);
        })
        .immediate();
    });
  }

  find(idHash: string): Promise<{ session: ConsoleSessionRecord; user: ConsoleUserRecord } | undefined> {
    return run(() => {
      const row = this.db
        .prepare(
          `SELECT u.*, s.id_hash, s.user_id, s.created_at AS session_created_at, s.expires_at
           FROM console_sessions s JOIN console_users u ON u.id = s.user_id WHERE s.id_hash = ?`,
        )
        .get(idHash) as SessionUserRowData | undefined;
      if (!row) return undefined;
      return sessionWithUserOf(row);
    });
  }

  delete(idHash: string): Promise<void> {
    return run(() => {
      this.db.prepare('DELETE FROM console_sessions WHERE id_hash = ?').run(idHash);
    });
  }

  deleteForUser(userId: string): Promise<void> {
    return run(() => {
      this.db.prepare('DELETE FROM console_sessions WHERE user_id = ?').run(userId);
    });
  }
}
