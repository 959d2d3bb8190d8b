import type { SettingsRepository } from '../../contracts/settings-repository.js';
import { run, type Database } from './database.js';

/** How often a watched database is checked for other connections' commits. */
const WATCH_INTERVAL_MS = 1000;

/** Settings in the `settings` table (JSON text values). */
export class SqliteSettingsRepository implements SettingsRepository {
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private dataVersion = 0;

  constructor(private readonly db: Database) {}

  all(): Promise<Record<string, unknown>> {
    return run(() => {
      const rows = this.db.prepare('SELECT key, value FROM settings ORDER BY key').all() as {
        key: string;
        value: string;
      }[];
      return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
    });
  }

  setMany(values: Readonly<Record<string, unknown>>): Promise<void> {
    return run(() => {
      const upsert = this.db.prepare(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      );
      const now = new Date().toISOString();
      this.db
        .transaction(() => {
          for (const [key, value] of Object.entries(values)) upsert.run(key, JSON.stringify(value), now);
        })
        .immediate();
    });
  }

  remove(keys: readonly string[]): Promise<void> {
    return run(() => {
      const remove = this.db.prepare('DELETE FROM settings WHERE key = ?');
      this.db
        .transaction(() => {
          for (const key of keys) remove.run(key);
        })
        .immediate();
    });
  }

  /**
   * Other processes on the same file (the CLIs) are noticed by SQLite's data_version, which changes when another
   * connection commits: one cheap pragma a second while someone listens.
   */
  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.timer) {
      this.dataVersion = this.readDataVersion();
      this.timer = setInterval(() => {
        this.poll();
      }, WATCH_INTERVAL_MS).unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopWatching();
    };
  }

  /** Stop polling (the store is closing). */
  stopWatching(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private poll(): void {
    let version: number;
    try {
      version = this.readDataVersion();
    } catch {
      // Closed under us: nothing more to watch.
      this.stopWatching();
      return;
    }
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    for (const listener of [...this.listeners]) listener();
  }

  private readDataVersion(): number {
    return Number(this.db.pragma('data_version', { simple: true }));
  }
}
