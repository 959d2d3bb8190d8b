import { openStore } from './open-store.js';

/** Settings key of the bind address an administrator chose in the console (applied at the next start). */
export const SERVER_BIND_KEY = 'server.bind';

/** The bind address stored by the console in this data dir, or null when none was chosen. */
export async function storedBindAddress(dataDir: string): Promise<{ host?: string; port?: number } | null> {
  const store = await openStore({ dataDir });
  try {
    const stored = (await store.settings.all())[SERVER_BIND_KEY];
    return typeof stored === 'object' && stored !== null ? stored : null;
  } finally {
    await store.close();
  }
}
