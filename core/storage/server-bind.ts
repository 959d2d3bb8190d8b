import { openStore } from './db.js';
import { SettingsStore } from './settings.js';

/** Settings key of the bind address an administrator chose in the console (applied at the next start). */
export const SERVER_BIND_KEY = 'server.bind';

/** The bind address stored by the console in this data dir, or null when none was chosen. */
export function storedBindAddress(dataDir: string): { host?: string; port?: number } | null {
  const store = openStore(dataDir);
  try {
    return new SettingsStore(store.db).get<{ host?: string; port?: number } | null>(SERVER_BIND_KEY, null);
  } finally {
    store.close();
  }
}
