import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../contracts/store.js';
import { storeContract } from '../contract/index.js';
import { applyMigrations } from './migrate.js';
import { createPool } from './connection.js';
import { postgresMigrations } from './migrations/index.js';
import { openPostgresStore } from './postgres-store.js';
import { postgresUnavailable, startTestPostgres, type TestPostgres } from './test-server.js';

const skip = postgresUnavailable();
if (skip) console.warn(`PostgreSQL store tests skipped: ${skip}`);

describe.skipIf(skip)('PostgreSQL store adapter', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 60_000);
  afterAll(() => {
    server.destroy();
  });

  storeContract(async () => {
    const url = await server.createDatabase();
    const store = await openPostgresStore(url);
    const others: Store[] = [];
    return {
      store,
      another: async () => {
        const other = await openPostgresStore(url);
        others.push(other);
        return other;
      },
      dispose: async () => {
        for (const other of others) await other.close();
        await store.close();
      },
    };
  });

  it('applies migrations once when replicas start together', async () => {
    const url = await server.createDatabase();
    const pools = Array.from({ length: 4 }, () => createPool(url));
    try {
      const ran = await Promise.all(pools.map((pool) => applyMigrations(pool, postgresMigrations)));
      expect(ran.flat().sort((a, b) => a - b)).toEqual(postgresMigrations.map((m) => m.version));
      expect(ran.filter((versions) => versions.length > 0)).toHaveLength(1);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('refuses to open an unreachable database with a message naming it, without the password', async () => {
    await expect(openPostgresStore('postgres://idv:secret@127.0.0.1:1/none')).rejects.toThrow(
      /Cannot open the PostgreSQL store postgres:\/\/idv:\*\*\*@127\.0\.0\.1:1\/none/,
    );
  });
});
