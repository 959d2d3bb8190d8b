import type pg from 'pg';
import type {
  ConsoleAccountRepository,
  ConsoleSessionRecord,
  ConsoleSessionRepository,
  ConsoleUserChange,
  ConsoleUserRecord,
} from '../../contracts/console-repositories.js';
import { query, transaction, type Queryable } from './connection.js';
import {
  consoleUserOf,
  sessionWithUserOf,
  type ConsoleUserRowData,
  type SessionUserRowData,
} from '../rows.js';

/**
 * Locks every enabled admin row (FOR UPDATE) and counts them: two transactions that would each leave the last admin
 * (or each create the first) queue on these locks or on the account-change lock below, and the second sees the first.
 */
async function enabledAdmins(client: Queryable): Promise<number> {
  return (
    await query(
      client,
      "SELECT id FROM console_users WHERE role = 'admin' AND disabled_at IS NULL FOR UPDATE",
    )
  ).length;
}

/** Transaction-scoped advisory lock key serialising admin-changing account writes ("idv" + "adm"). */
const ACCOUNTS_LOCK = 0x6964_7661_646d;

/** Console accounts in `console_users` (usernames unique regardless of case). */
export class PostgresConsoleAccountRepository implements ConsoleAccountRepository {
  constructor(private readonly pool: pg.Pool) {}

  insert(
    record: ConsoleUserRecord,
    options: { onlyIfNoAdmin?: boolean } = {},
  ): Promise<'created' | 'duplicate' | 'admin_exists'> {
    return transaction(this.pool, async (client) => {
      if (options.onlyIfNoAdmin) {
        // With no admin row to lock, two first-run setups would both see none: they queue on this lock instead.
        await query(client, 'SELECT pg_advisory_xact_lock($1)', [ACCOUNTS_LOCK]);
        if ((await enabledAdmins(client)) > 0) return 'admin_exists' as const;
      }
      const rows = await query(
        client,
        `INSERT INTO console_users (id, username, role, password_hash, created_at, disabled_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING id`,
        [record.id, record.username, record.role, record.passwordHash, record.createdAt, record.disabledAt],
      );
      return rows.length === 0 ? ('duplicate' as const) : ('created' as const);
    });
  }

  async list(): Promise<ConsoleUserRecord[]> {
    return (
      await query<ConsoleUserRowData>(this.pool, 'SELECT * FROM console_users ORDER BY created_at, username')
    ).map(consoleUserOf);
  }

  async get(id: string): Promise<ConsoleUserRecord | undefined> {
    const [row] = await query<ConsoleUserRowData>(this.pool, 'SELECT * FROM console_users WHERE id = $1', [
      id,
    ]);
    return row && consoleUserOf(row);
  }

  async findByUsername(username: string): Promise<ConsoleUserRecord | undefined> {
    const [row] = await query<ConsoleUserRowData>(
      this.pool,
      'SELECT * FROM console_users WHERE lower(username) = lower($1)',
      [username],
    );
    return row && consoleUserOf(row);
  }

  async hasEnabledAdmin(): Promise<boolean> {
    return (
      (
        await query(
          this.pool,
          "SELECT 1 FROM console_users WHERE role = 'admin' AND disabled_at IS NULL LIMIT 1",
        )
      ).length > 0
    );
  }

  update(id: string, change: ConsoleUserChange): Promise<'updated' | 'not_found' | 'last_admin'> {
    return transaction(this.pool, async (client) => {
      await query(client, 'SELECT pg_advisory_xact_lock($1)', [ACCOUNTS_LOCK]);
      const [current] = await query<ConsoleUserRowData>(
        client,
        'SELECT * FROM console_users WHERE id = $1 FOR UPDATE',
        [id],
      );
      if (!current) return 'not_found' as const;
      const role = change.role ?? current.role;
      const disabledAt = change.disabledAt === undefined ? current.disabled_at : change.disabledAt;
      const wasAdmin = current.role === 'admin' && current.disabled_at === null;
      const staysAdmin = role === 'admin' && disabledAt === null;
      if (wasAdmin && !staysAdmin && (await enabledAdmins(client)) <= 1) return 'last_admin' as const;
      await query(
        client,
        'UPDATE console_users SET role = $1, disabled_at = $2, password_hash = $3 WHERE id = $4',
        [role, disabledAt, change.passwordHash ?? current.password_hash, id],
      );
      return 'updated' as const;
    });
  }
}

/** Console sessions in `console_sessions` (the SHA-256 of the id only). */
export class PostgresConsoleSessionRepository implements ConsoleSessionRepository {
  constructor(private readonly pool: pg.Pool) {}

  async create(record: ConsoleSessionRecord): Promise<void> {
    await transaction(this.pool, async (client) => {
      await query(client, 'DELETE FROM console_sessions WHERE expires_at < $1', [record.createdAt]);
      await query(
        client,
        'INSERT INTO console_sessions (id_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
        [record.idHash, record.userId, record.createdAt, record.expiresAt],
      );
    });
  }

  async find(
    idHash: string,
  ): Promise<{ session: ConsoleSessionRecord; user: ConsoleUserRecord } | undefined> {
    const [row] = await query<SessionUserRowData>(
      this.pool,
      `SELECT u.*, s.id_hash, s.user_id, s.created_at AS session_created_at, s.expires_at
       FROM console_sessions s JOIN console_users u ON u.id = s.user_id WHERE s.id_hash = $1`,
      [idHash],
    );
    if (!row) return undefined;
    return sessionWithUserOf(row);
  }

  async delete(idHash: string): Promise<void> {
    await query(this.pool, 'DELETE FROM console_sessions WHERE id_hash = $1', [idHash]);
  }

  async deleteForUser(userId: string): Promise<void> {
    await query(this.pool, 'DELETE FROM console_sessions WHERE user_id = $1', [userId]);
  }
}
