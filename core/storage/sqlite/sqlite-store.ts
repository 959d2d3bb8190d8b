import type { Store, StoreHealth } from '../../contracts/store.js';
import { SqliteApiKeyRepository } from './api-key-repository.js';
import { SqliteAuditRepository } from './audit-repository.js';
import { SqliteConsoleAccountRepository, SqliteConsoleSessionRepository } from './console-repositories.js';
import { openDatabase, run, type OpenDatabase } from './database.js';
import { SqliteDocumentProfileRepository } from './document-profile-repository.js';
import { SqliteEnrollmentRepository } from './enrollment-repository.js';
import type { Migration } from './migration.js';
import { allMigrations } from './migrations/index.js';
import { SqliteOutboxRepository } from './outbox-repository.js';
import { SqliteReferenceMarkRepository } from './reference-mark-repository.js';
import { SqliteSettingsRepository } from './settings-repository.js';

/**
 * The embedded store: one SQLite file (WAL, sqlite-vec) in the data directory, one connection on the main thread.
 * Every operation runs synchronously inside its promise, so none interleaves with another.
 */
export class SqliteStore implements Store {
  readonly settings: SqliteSettingsRepository;
  readonly apiKeys: SqliteApiKeyRepository;
  readonly audit: SqliteAuditRepository;
  readonly outbox: SqliteOutboxRepository;
  readonly enrollments: SqliteEnrollmentRepository;
  readonly documentProfiles: SqliteDocumentProfileRepository;
  readonly referenceMarks: SqliteReferenceMarkRepository;
  readonly consoleAccounts: SqliteConsoleAccountRepository;
  readonly consoleSessions: SqliteConsoleSessionRepository;
  private closed = false;

  constructor(private readonly database: OpenDatabase) {
    const { db } = database;
    this.settings = new SqliteSettingsRepository(db);
    this.apiKeys = new SqliteApiKeyRepository(db);
    this.audit = new SqliteAuditRepository(db);
    this.outbox = new SqliteOutboxRepository(db);
    this.enrollments = new SqliteEnrollmentRepository(db, this.audit);
    this.documentProfiles = new SqliteDocumentProfileRepository(db);
    this.referenceMarks = new SqliteReferenceMarkRepository(db);
    this.consoleAccounts = new SqliteConsoleAccountRepository(db);
    this.consoleSessions = new SqliteConsoleSessionRepository(db);
  }

  /** The data directory holding the database file. */
  get dataDir(): string {
    return this.database.dataDir;
  }

  /** The connection itself, for this adapter's own tests and test helpers (testing.ts). */
  get connection(): OpenDatabase['db'] {
    return this.database.db;
  }

  keyCheck(value: string): Promise<string> {
    return run(() => {
      const db = this.database.db;
      db.prepare("INSERT OR IGNORE INTO store_facts (key, value) VALUES ('template_key_check', ?)").run(
        value,
      );
      return (
        db.prepare("SELECT value FROM store_facts WHERE key = 'template_key_check'").get() as {
          value: string;
        }
      ).value;
    });
  }

  health(): Promise<StoreHealth> {
    let reachable = !this.closed;
    try {
      this.database.db.prepare('SELECT 1').get();
    } catch {
      reachable = false;
    }
    return Promise.resolve({
      reachable,
      sqlite: this.database.sqliteVersion,
      sqlite_vec: this.database.sqliteVecVersion,
    });
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.settings.stopWatching();
      this.database.db.close();
    }
    return Promise.resolve();
  }
}

/** Open (or create) the SQLite store of a data directory, applying pending migrations. */
export function openSqliteStore(dataDir: string, migrations: Migration[] = allMigrations): SqliteStore {
  return new SqliteStore(openDatabase(dataDir, migrations));
}
