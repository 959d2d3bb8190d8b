import type pg from 'pg';
import type { SettingsRepository } from '../../contracts/settings-repository.js';
import { query, transaction } from './connection.js';
import type { Notifications } from './notifications.js';

/** Channel on which a settings write is announced, with the writing handle's id as payload. */
export const SETTINGS_CHANNEL = 'idv_settings';

/** Settings in the `settings` table (JSON text values); other handles' writes arrive by LISTEN/NOTIFY. */
export class PostgresSettingsRepository implements SettingsRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly notifications: Notifications,
    /** This handle's id: its own notifications are not reported back to it. */
    private readonly handleId: string,
  ) {}

  async all(): Promise<Record<string, unknown>> {
    const rows = await query<{ key: string; value: string }>(
      this.pool,
      'SELECT key, value FROM settings ORDER BY key',
    );
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
  }

  async setMany(values: Readonly<Record<string, unknown>>): Promise<void> {
    // Serialised before the transaction: a value JSON cannot hold fails the call with nothing written.
    const entries = Object.entries(values).map(([key, value]) => [key, JSON.stringify(value)] as const);
    const now = new Date().toISOString();
    await transaction(this.pool, async (client) => {
      for (const [key, json] of entries) {
        await query(
          client,
          `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
          [key, json, now],
        );
      }
      // Delivered at commit, to every handle listening (this one ignores its own).
      await query(client, 'SELECT pg_notify($1, $2)', [SETTINGS_CHANNEL, this.handleId]);
    });
  }

  async remove(keys: readonly string[]): Promise<void> {
    await transaction(this.pool, async (client) => {
      await query(client, 'DELETE FROM settings WHERE key = ANY($1::text[])', [keys]);
      await query(client, 'SELECT pg_notify($1, $2)', [SETTINGS_CHANNEL, this.handleId]);
    });
  }

  /** Other handles' writes, by notification; once whenever listening starts (writes before it may be lost). */
  watch(listener: () => void): () => void {
    return this.notifications.subscribe(SETTINGS_CHANNEL, (payload) => {
      if (payload !== this.handleId) listener();
    });
  }
}
