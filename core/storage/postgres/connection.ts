import pg from 'pg';
import { CoreError } from '../../errors.js';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** What runs a statement: the pool, or one client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

/** Seconds a client is told to wait before retrying while the database does not answer. */
export const RETRY_AFTER_SECONDS = 2;

/** PostgreSQL's type id of bigint (int8). */
const INT8_OID = 20;
const defaultParser = pg.types.getTypeParser as (oid: number, format?: string) => (value: string) => unknown;
/** bigint (int8) columns and counts as JS numbers: every sequence here stays far below 2^53. */
const types = {
  getTypeParser: (oid: number, format?: string) =>
    oid === INT8_OID ? (value: string) => Number(value) : defaultParser(oid, format),
} as unknown as pg.CustomTypesConfig;

/** Connection settings shared by the pool and the notification listener. */
export function clientConfig(url: string): pg.ClientConfig {
  return {
    connectionString: url,
    types,
    // Fail fast while the database is down: requests answer 503 instead of queueing.
    connectionTimeoutMillis: 3000,
    keepAlive: true,
    application_name: 'idv-console',
  };
}

/** A pool of connections to `url`; idle connections that break (database restarted) are dropped, never fatal. */
export function createPool(url: string): pg.Pool {
  const pool = new pg.Pool({ ...clientConfig(url), max: 10, idleTimeoutMillis: 30_000 });
  // Without a listener an idle client's error (server restart) would crash the process.
  pool.on('error', () => undefined);
  return pool;
}

const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** SQLSTATEs of a database going away or refusing connections (class 08, shutdown, too many connections). */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08006']);

/** True when `error` says the database cannot be reached (as opposed to a statement it refused). */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_STATES.has(code))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|connection error/i.test(
    error.message,
  );
}

/** The error a caller sees: STORE_UNAVAILABLE (503, Retry-After) when the database is unreachable, else `error`. */
export function storeError(error: unknown): Error {
  if (isUnavailable(error)) {
    return new CoreError(
      'STORE_UNAVAILABLE',
      'The database does not answer; nothing was written. Retry shortly.',
      {
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      },
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** Run one statement; an unreachable database becomes STORE_UNAVAILABLE. */
export async function query<R extends pg.QueryResultRow>(
  db: Queryable,
  sql: string,
  values: unknown[] = [],
): Promise<R[]> {
  try {
    return (await db.query<R>(sql, values)).rows;
  } catch (error) {
    throw storeError(error);
  }
}

/**
 * Run `body` in one transaction on one connection: committed when it resolves, rolled back when it throws (so a
 * failure, a lost connection included, leaves nothing half-written).
 */
export async function transaction<T>(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw storeError(error);
  }
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await body(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: unknown) => {
      broken = rollback instanceof Error ? rollback : new Error(String(rollback));
    });
    throw storeError(error);
  } finally {
    // A connection that could not roll back is broken: destroy it rather than hand it to the next caller.
    client.release(broken);
  }
}
