/** Console roles: operators capture and verify, admins manage keys and settings, auditors read the audit log. */
export type ConsoleRole = 'operator' | 'admin' | 'auditor';

/** A console account as stored (the password as its scrypt hash). */
export interface ConsoleUserRecord {
  id: string;
  /** Unique regardless of case. */
  username: string;
  role: ConsoleRole;
  passwordHash: string;
  createdAt: string;
  disabledAt: string | null;
}

/** A change to an account; fields left out stay. */
export interface ConsoleUserChange {
  role?: ConsoleRole;
  disabledAt?: string | null;
  passwordHash?: string;
}

/** Local console accounts. */
export interface ConsoleAccountRepository {
  /**
   * Insert an account: `duplicate` when the name is taken (any case); with `onlyIfNoAdmin`, `admin_exists` when an
   * enabled admin exists (checked in the same transaction: two first-run setups cannot both succeed).
   */
  insert(
    record: ConsoleUserRecord,
    options?: { onlyIfNoAdmin?: boolean },
  ): Promise<'created' | 'duplicate' | 'admin_exists'>;
  /** Every account, oldest first. */
  list(): Promise<ConsoleUserRecord[]>;
  get(id: string): Promise<ConsoleUserRecord | undefined>;
  /** The account of a name, regardless of case. */
  findByUsername(username: string): Promise<ConsoleUserRecord | undefined>;
  /** True once an enabled admin exists. */
  hasEnabledAdmin(): Promise<boolean>;
  /**
   * Apply a change; `last_admin` (nothing changed) when it would leave no enabled admin, checked in the same
   * transaction so two admins cannot demote each other at once.
   */
  update(id: string, change: ConsoleUserChange): Promise<'updated' | 'not_found' | 'last_admin'>;
}

/** A console session as stored: the SHA-256 of its id, never the id. */
export interface ConsoleSessionRecord {
  idHash: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
}

/** Console sessions. */
export interface ConsoleSessionRepository {
  /** Store a session and drop every session expired before `record.createdAt`. */
  create(record: ConsoleSessionRecord): Promise<void>;
  /** The session of an id hash with its account, or undefined. */
  find(idHash: string): Promise<{ session: ConsoleSessionRecord; user: ConsoleUserRecord } | undefined>;
  delete(idHash: string): Promise<void>;
  /** End every session of an account. */
  deleteForUser(userId: string): Promise<void>;
}
