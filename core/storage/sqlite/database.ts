import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { unpacked } from '../../assets/assets.js';
import { CoreError } from '../../errors.js';
import type { Migration } from './migration.js';
import { allMigrations } from './migrations/index.js';

export type { Database } from 'better-sqlite3';

/** Name of the database file in the data directory. */
export const DATABASE_FILE = 'idv.sqlite';

/** An open SQLite database plus the facts health reports. */
export interface OpenDatabase {
  db: Database;
  dataDir: string;
  sqliteVersion: string;
  sqliteVecVersion: string;
}

/** Create the data directory with owner-only permissions (0700), tightening an existing one. */
export function ensureDataDir(dataDir: string): string {
  const resolved = path.resolve(dataDir);
  fs.mkdirSync(resolved, { recursive: true, mode: 0o700 });
  fs.chmodSync(resolved, 0o700);
  return resolved;
}

/** Open (or create) the database in `dataDir`, in WAL mode, with sqlite-vec loaded and migrations applied. */
export function openDatabase(dataDir: string, migrations: Migration[] = allMigrations): OpenDatabase {
  const dir = ensureDataDir(dataDir);
  const file = path.join(dir, DATABASE_FILE);
  const db = new BetterSqlite3(file);
  fs.chmodSync(file, 0o600);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // SQLite loads the extension from disk: in a packaged app that is its unpacked copy beside the asar.
  db.loadExtension(unpacked(sqliteVec.getLoadablePath()));
  applyMigrations(db, migrations);
  const sqliteVersion = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  const sqliteVecVersion = (db.prepare('SELECT vec_version() AS v').get() as { v: string }).v;
  return { db, dataDir: dir, sqliteVersion, sqliteVecVersion };
}

/** Apply every migration newer than the recorded schema version, each in its own transaction. */
export function applyMigrations(db: Database, migrations: Migration[]): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    ),
  );
  const seen = new Set<number>();
  const ran: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (seen.has(migration.version)) throw new Error(`Duplicate migration version ${migration.version}`);
    seen.add(migration.version);
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      if (typeof migration.up === 'string') db.exec(migration.up);
      else migration.up(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }).immediate();
    ran.push(migration.version);
  }
  return ran;
}

/**
 * Run one repository operation. better-sqlite3 is synchronous, so the whole operation (its transaction included)
 * runs before any other request's statement can: the single connection is the single writer path, and no
 * transaction ever spans an await. Errors become rejections.
 */
export function run<T>(operation: () => T): Promise<T> {
  try {
    return Promise.resolve(operation());
  } catch (error) {
    return Promise.reject(storageError(error));
  }
}

/**
 * What a failed statement means to the caller: another process holding the write lock past the busy timeout, or a
 * disk that is full or failing, is a 503 with Retry-After (the transaction rolled back: nothing was written);
 * anything else stays an error of the server.
 */
export function storageError(error: unknown): Error {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code)) {
    return new CoreError('STORE_UNAVAILABLE', 'The data store is busy with another writer; retry shortly.', {
      retryAfterSeconds: 1,
    });
  }
  if (typeof code === 'string' && /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN)/.test(code)) {
    return new CoreError(
      'STORE_UNAVAILABLE',
      'The data store cannot write (its disk is full or failing); nothing was saved. Retry later.',
      { retryAfterSeconds: 30 },
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}
