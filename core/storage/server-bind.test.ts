import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import { SERVER_BIND_KEY, storedBindAddress } from './server-bind.js';

describe('stored bind address', () => {
  it('is null until the console saves one, then reads back what was saved', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-bind-'));
    expect(await storedBindAddress(dir)).toBeNull();
    const store = await openStore({ dataDir: dir });
    await store.settings.setMany({ [SERVER_BIND_KEY]: { host: '0.0.0.0', port: 9443 } });
    await store.close();
    expect(await storedBindAddress(dir)).toEqual({ host: '0.0.0.0', port: 9443 });
  });
});
