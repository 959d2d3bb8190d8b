import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe } from 'vitest';
import type { Store } from '../../contracts/store.js';
import { storeContract } from '../contract/index.js';
import { openSqliteStore } from './sqlite-store.js';

describe('SQLite store adapter', () => {
  storeContract(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-store-contract-'));
    const store = openSqliteStore(dir);
    const others: Store[] = [];
    return Promise.resolve({
      store,
      another: () => {
        const other = openSqliteStore(dir);
        others.push(other);
        return Promise.resolve(other);
      },
      dispose: async () => {
        for (const other of others) await other.close();
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    });
  });
});
