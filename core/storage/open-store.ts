import type { Store } from '../contracts/store.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';

/** Where the store lives. */
export interface StoreLocation {
  /** Data directory (created 0700): the SQLite database file, when no `url` is given. */
  dataDir: string;
  /** A shared PostgreSQL database (postgres://user@host:port/db) instead of the data directory's SQLite file. */
  url?: string | undefined;
}

/** True when `store` names a PostgreSQL database rather than the embedded SQLite store. */
export function isPostgresUrl(store: string | undefined): boolean {
  return store !== undefined && /^postgres(ql)?:\/\//i.test(store);
}

/** Open the store (PostgreSQL when a URL is given, else the embedded SQLite file) with its migrations applied. */
export function openStore(location: StoreLocation): Promise<Store> {
  const { url } = location;
  if (url !== undefined) {
    if (isPostgresUrl(url)) return openPostgresStore(url);
    return Promise.reject(new Error(`--store takes a postgres:// URL, not ${url.split(':')[0] ?? ''}`));
  }
  try {
    return Promise.resolve(openSqliteStore(location.dataDir));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
