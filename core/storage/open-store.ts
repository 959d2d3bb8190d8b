import type { Store } from '../contracts/store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';

/** Where the store lives. */
export interface StoreLocation {
  /** Data directory (created 0700): the SQLite database file. */
  dataDir: string;
}

/** Open the store (the embedded SQLite adapter) with its migrations applied. */
export function openStore(location: StoreLocation): Promise<Store> {
  try {
    return Promise.resolve(openSqliteStore(location.dataDir));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
