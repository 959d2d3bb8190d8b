import type { Database } from 'better-sqlite3';

/**
 * Typed key/value settings persisted in SQLite (table `settings`, JSON values). Engines keep their operator
 * settings here under a namespaced key, e.g. `face.threshold`, `fingerprint.dedup`, `orchestrator.config`.
 */
export class SettingsStore {
  constructor(private readonly db: Database) {}

  /** The stored value, or `fallback` when the key was never set. */
  get<T>(key: string, fallback: T): T {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : fallback;
  }

  /** Store a JSON-serialisable value. */
  set(key: string, value: unknown): void {
    this.db
      .prepare(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      )
      .run(key, JSON.stringify(value), new Date().toISOString());
  }

  /** Store several values at once: all of them or, on a failure, none. */
  setMany(values: Record<string, unknown>): void {
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(values)) this.set(key, value);
    })();
  }

  /** Every key with its value, for the console's settings screen. */
  all(): Record<string, unknown> {
    const rows = this.db.prepare('SELECT key, value FROM settings ORDER BY key').all() as {
      key: string;
      value: string;
    }[];
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
  }
}
