import type pg from 'pg';
import { storeError } from './connection.js';

/** One numbered schema change of the PostgreSQL store (the same areas and ranges as the SQLite store's). */
export interface PostgresMigration {
  version: number;
  name: string;
  up: string;
}

/** Advisory lock key held while migrations run ("idv" + "mig" in ASCII), so replicas starting together take turns. */
export const MIGRATION_LOCK = 0x6964_766d_6967;

/**
 * Apply every migration newer than those recorded, each in its own transaction, while holding a session advisory
 * lock: replicas starting together wait for the first one and then find nothing left to do. Returns the versions
 * this call applied.
 */
export async function applyMigrations(
  pool: pg.Pool,
  migrations: readonly PostgresMigration[],
): Promise<number[]> {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.version === sorted[i - 1]!.version)
      throw new Error(`Duplicate migration version ${sorted[i]!.version}`);
  }
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw storeError(error);
  }
  const ran: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
    const applied = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map(
        (r) => r.version,
      ),
    );
    for (const migration of sorted) {
      if (applied.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.up);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          new Date().toISOString(),
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(
          `Migration ${migration.version} (${migration.name}) failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      ran.push(migration.version);
    }
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    client.release();
  } catch (error) {
    // Closing the session releases the advisory lock too.
    client.release(error instanceof Error ? error : new Error(String(error)));
    throw storeError(error);
  }
  return ran;
}
