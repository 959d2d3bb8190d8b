import { DEFAULT_HOST, DEFAULT_PORT } from '../settings/defaults.js';
import { Settings } from '../settings/settings.js';
import { openStore, type StoreLocation } from '../storage/open-store.js';

/** The bind address saved in the console for this store (`server.bind`), or null when none was chosen. */
export async function storedBindAddress(
  where: string | StoreLocation,
): Promise<{ host: string; port: number } | null> {
  const store = await openStore(typeof where === 'string' ? { dataDir: where } : where);
  try {
    const settings = await Settings.open(store.settings);
    settings.close();
    return settings.get('server.bind');
  } finally {
    await store.close();
  }
}

/**
 * Host and port to listen on: what the caller was given (flag or environment), else the console's saved choice
 * (applied at this start), else the defaults. Throws on a port that is not one.
 */
export async function bindAddress(
  where: string | StoreLocation,
  given: { host?: string | undefined; port?: string | undefined },
): Promise<{ host: string; port: number }> {
  const stored = await storedBindAddress(where);
  const host = given.host ?? stored?.host ?? DEFAULT_HOST;
  const port = given.port === undefined ? (stored?.port ?? DEFAULT_PORT) : Number(given.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Invalid port ${String(given.port)}.`);
  return { host, port };
}
