import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { CoreError } from '../../errors.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';

/** Console roles: operators capture and verify, admins manage keys and settings, auditors read the audit log. */
export type ConsoleRole = 'operator' | 'admin' | 'auditor';

export const CONSOLE_ROLES: readonly ConsoleRole[] = ['operator', 'admin', 'auditor'];

/** A console account as the API shows it (never the password hash). */
export interface ConsoleUser {
  id: string;
  username: string;
  role: ConsoleRole;
  createdAt: string;
  disabled: boolean;
}

interface UserRow {
  id: string;
  username: string;
  role: ConsoleRole;
  password_hash: string;
  created_at: string;
  disabled_at: string | null;
}

// A fixed hash to verify against when the username is unknown, so timing does not reveal which names exist.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + Buffer.alloc(64).toString('base64');

function toUser(row: UserRow): ConsoleUser {
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    createdAt: row.created_at,
    disabled: row.disabled_at !== null,
  };
}

function checkUsername(username: string): void {
  if (!/^[A-Za-z0-9._-]{3,64}$/.test(username)) {
    throw new CoreError(
      'FIELD_INVALID',
      'The username must be 3-64 letters, digits, dots, dashes or underscores.',
      {
        field: 'username',
      },
    );
  }
}

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw new CoreError('FIELD_INVALID', problem, { field: 'password' });
}

/** Local console accounts stored in SQLite with scrypt password hashes. */
export class ConsoleAccounts {
  constructor(private readonly db: Database) {}

  /** True once an enabled admin exists (the first-run setup is then closed). */
  hasAdmin(): boolean {
    return (
      this.db
        .prepare("SELECT 1 FROM console_users WHERE role = 'admin' AND disabled_at IS NULL LIMIT 1")
        .get() !== undefined
    );
  }

  /** First-run setup: create the first admin, refused once any admin exists. */
  async setupAdmin(username: string, password: string): Promise<ConsoleUser> {
    if (this.hasAdmin()) throw new CoreError('CONFLICT', 'The console is already set up; sign in instead.');
    return this.create(username, password, 'admin');
  }

  /** Create an account; usernames are unique regardless of case. */
  async create(username: string, password: string, role: ConsoleRole): Promise<ConsoleUser> {
    checkUsername(username);
    checkPassword(password);
    const hash = await hashPassword(password);
    const row: UserRow = {
      id: randomUUID(),
      username,
      role,
      password_hash: hash,
      created_at: new Date().toISOString(),
      disabled_at: null,
    };
    try {
      this.db
        .prepare(
          'INSERT INTO console_users (id, username, role, password_hash, created_at) VALUES (@id, @username, @role, @password_hash, @created_at)',
        )
        .run(row);
    } catch (error) {
      if (error instanceof Error && /UNIQUE/.test(error.message)) {
        throw new CoreError('CONFLICT', `An account named ${username} already exists.`, {
          field: 'username',
        });
      }
      throw error;
    }
    return toUser(row);
  }

  /** Every account, oldest first. */
  list(): ConsoleUser[] {
    return (
      this.db.prepare('SELECT * FROM console_users ORDER BY created_at, username').all() as UserRow[]
    ).map(toUser);
  }

  /** One account by id, or undefined. */
  get(id: string): ConsoleUser | undefined {
    const row = this.db.prepare('SELECT * FROM console_users WHERE id = ?').get(id) as UserRow | undefined;
    return row ? toUser(row) : undefined;
  }

  /** The enabled account these credentials belong to, or undefined (same work whether or not the name exists). */
  async authenticate(username: string, password: string): Promise<ConsoleUser | undefined> {
    const row = this.db.prepare('SELECT * FROM console_users WHERE username = ?').get(username) as
      UserRow | undefined;
    const ok = await verifyPassword(password, row?.password_hash ?? DUMMY_HASH);
    if (!row || !ok || row.disabled_at !== null) return undefined;
    return toUser(row);
  }

  /** Change role, enabled state or password of an account; the last enabled admin cannot be demoted or disabled. */
  async update(
    id: string,
    change: { role?: ConsoleRole; disabled?: boolean; password?: string },
  ): Promise<ConsoleUser> {
    const current = this.get(id);
    if (!current) throw new CoreError('NOT_FOUND', 'No such console account.');
    const losesAdmin =
      current.role === 'admin' &&
      !current.disabled &&
      ((change.role && change.role !== 'admin') || change.disabled);
    if (losesAdmin && this.enabledAdminCount() <= 1) {
      throw new CoreError('CONFLICT', 'The last admin cannot be demoted or disabled.');
    }
    const hash =
      change.password === undefined
        ? undefined
        : (checkPassword(change.password), await hashPassword(change.password));
    this.db.transaction(() => {
      if (change.role) this.db.prepare('UPDATE console_users SET role = ? WHERE id = ?').run(change.role, id);
      if (change.disabled !== undefined) {
        this.db
          .prepare('UPDATE console_users SET disabled_at = ? WHERE id = ?')
          .run(change.disabled ? new Date().toISOString() : null, id);
      }
      if (hash) this.db.prepare('UPDATE console_users SET password_hash = ? WHERE id = ?').run(hash, id);
    })();
    return this.get(id)!;
  }

  private enabledAdminCount(): number {
    return (
      this.db
        .prepare("SELECT COUNT(*) AS n FROM console_users WHERE role = 'admin' AND disabled_at IS NULL")
        .get() as {
        n: number;
      }
    ).n;
  }
}
