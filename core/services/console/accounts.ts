import { randomUUID } from 'node:crypto';
import type {
  ConsoleAccountRepository,
  ConsoleRole,
  ConsoleUserRecord,
} from '../../contracts/console-repositories.js';
import { CoreError } from '../../errors.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';

export type { ConsoleRole } from '../../contracts/console-repositories.js';

export const CONSOLE_ROLES: readonly ConsoleRole[] = ['operator', 'admin', 'auditor'];

/** A console account as the API shows it (never the password hash). */
export interface ConsoleUser {
  id: string;
  username: string;
  role: ConsoleRole;
  createdAt: string;
  disabled: boolean;
}

// A fixed hash to verify against when the username is unknown, so timing does not reveal which names exist.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + Buffer.alloc(64).toString('base64');

/** The account as the API shows it. */
export function toConsoleUser(record: ConsoleUserRecord): ConsoleUser {
  return {
    id: record.id,
    username: record.username,
    role: record.role,
    createdAt: record.createdAt,
    disabled: record.disabledAt !== null,
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

function lastAdmin(): CoreError {
  return new CoreError('CONFLICT', 'The last admin cannot be demoted or disabled.');
}

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw new CoreError('FIELD_INVALID', problem, { field: 'password' });
}

/** Local console accounts with scrypt password hashes. */
export class ConsoleAccounts {
  constructor(private readonly accounts: ConsoleAccountRepository) {}

  /** True once an enabled admin exists (the first-run setup is then closed). */
  hasAdmin(): Promise<boolean> {
    return this.accounts.hasEnabledAdmin();
  }

  /** First-run setup: create the first admin, refused once any admin exists. */
  setupAdmin(username: string, password: string): Promise<ConsoleUser> {
    return this.insert(username, password, 'admin', true);
  }

  /** Create an account; usernames are unique regardless of case. */
  create(username: string, password: string, role: ConsoleRole): Promise<ConsoleUser> {
    return this.insert(username, password, role, false);
  }

  /** Every account, oldest first. */
  async list(): Promise<ConsoleUser[]> {
    return (await this.accounts.list()).map(toConsoleUser);
  }

  /** One account by id, or undefined. */
  async get(id: string): Promise<ConsoleUser | undefined> {
    const record = await this.accounts.get(id);
    return record && toConsoleUser(record);
  }

  /** The enabled account these credentials belong to, or undefined (same work whether or not the name exists). */
  async authenticate(username: string, password: string): Promise<ConsoleUser | undefined> {
    const record = await this.accounts.findByUsername(username);
    const ok = await verifyPassword(password, record?.passwordHash ?? DUMMY_HASH);
    if (!record || !ok || record.disabledAt !== null) return undefined;
    return toConsoleUser(record);
  }

  /** Change role, enabled state or password of an account; the last enabled admin cannot be demoted or disabled. */
  async update(
    id: string,
    change: { role?: ConsoleRole; disabled?: boolean; password?: string },
  ): Promise<ConsoleUser> {
    const current = await this.accounts.get(id);
    if (!current) throw new CoreError('NOT_FOUND', 'No such console account.');
    // Refused before the password is hashed; the store checks again atomically.
    const losesAdmin =
      current.role === 'admin' &&
      current.disabledAt === null &&
      ((change.role && change.role !== 'admin') || change.disabled);
    if (losesAdmin && !(await this.anotherEnabledAdmin(id))) throw lastAdmin();
    if (change.password !== undefined) checkPassword(change.password);
    const passwordHash = change.password === undefined ? undefined : await hashPassword(change.password);
    const disabledAt =
      change.disabled === undefined
        ? undefined
        : change.disabled
          ? (current.disabledAt ?? new Date().toISOString())
          : null;
    const result = await this.accounts.update(id, {
      ...(change.role ? { role: change.role } : {}),
      ...(disabledAt === undefined ? {} : { disabledAt }),
      ...(passwordHash ? { passwordHash } : {}),
    });
    if (result === 'not_found') throw new CoreError('NOT_FOUND', 'No such console account.');
    if (result === 'last_admin') throw lastAdmin();
    return (await this.get(id))!;
  }

  private async anotherEnabledAdmin(id: string): Promise<boolean> {
    return (await this.accounts.list()).some(
      (u) => u.id !== id && u.role === 'admin' && u.disabledAt === null,
    );
  }

  private async insert(
    username: string,
    password: string,
    role: ConsoleRole,
    firstAdmin: boolean,
  ): Promise<ConsoleUser> {
    if (firstAdmin && (await this.hasAdmin()))
      throw new CoreError('CONFLICT', 'The console is already set up; sign in instead.');
    checkUsername(username);
    checkPassword(password);
    const record: ConsoleUserRecord = {
      id: randomUUID(),
      username,
      role,
      passwordHash: await hashPassword(password),
      createdAt: new Date().toISOString(),
      disabledAt: null,
    };
    const result = await this.accounts.insert(record, { onlyIfNoAdmin: firstAdmin });
    if (result === 'admin_exists')
      throw new CoreError('CONFLICT', 'The console is already set up; sign in instead.');
    if (result === 'duplicate') {
      throw new CoreError('CONFLICT', `An account named ${username} already exists.`, {
        field: 'username',
      });
    }
    return toConsoleUser(record);
  }
}
