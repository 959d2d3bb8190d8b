import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Settings } from '../settings/settings.js';
import { openSqliteStore, type SqliteStore } from '../storage/sqlite/sqlite-store.js';

/** A real SQLite store in a fresh temporary data directory, with its settings. */
export interface TempStore {
  store: SqliteStore;
  settings: Settings;
  dataDir: string;
  /** Close the store and delete the directory. */
  dispose(): Promise<void>;
}

/** Open a store in a new temporary directory (deleted by `dispose`). */
export async function tempStore(prefix = 'idv-store-'): Promise<TempStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const store = openSqliteStore(dataDir);
  const settings = await Settings.open(store.settings);
  return {
    store,
    settings,
    dataDir,
    dispose: async () => {
      settings.close();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
