import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from './db.js';
import { SERVER_BIND_KEY, storedBindAddress } from './server-bind.js';
import { SettingsStore } from './settings.js';

describe('stored bind address', () => {
  it('is null until the console saves one, then reads back what was saved', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-bind-'));
    expect(storedBindAddress(dir)).toBeNull();
    const store = openStore(dir);
    new SettingsStore(store.db).set(SERVER_BIND_KEY, { host: '0.0.0.0', port: 9443 });
    store.close();
    expect(storedBindAddress(dir)).toEqual({ host: '0.0.0.0', port: 9443 });
  });
});
