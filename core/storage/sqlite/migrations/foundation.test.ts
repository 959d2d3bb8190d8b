import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../sqlite-store.js';
import { insertSetting, openAtSchema } from '../testing.js';

let dir = '';
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The settings of a data dir written by a release at schema 1, opened by this one. */
async function migrated(values: Record<string, unknown>): Promise<Record<string, unknown>> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-migrate-'));
  const old = openAtSchema(dir, 2);
  for (const [key, value] of Object.entries(values)) insertSetting(old, key, value);
  old.close();
  const store = openSqliteStore(dir);
  try {
    return await store.settings.all();
  } finally {
    await store.close();
  }
}

describe('one threshold setting per engine (migration 2)', () => {
  it("keeps the value each engine read: the console's choice for fingerprints, the number for faces", async () => {
    expect(
      await migrated({
        'fingerprint.threshold': { oneInN: 100_000, threshold: 31.2 },
        'fingerprint.thresholdOneInN': 1_000,
        'face.threshold': { oneInN: 100, threshold: 0.3 },
        'face.thresholdOneInN': 10_000,
        'auth.mode': 'enforce',
      }),
    ).toEqual({
      'fingerprint.thresholdOneInN': 100_000,
      'face.thresholdOneInN': 10_000,
      'auth.mode': 'enforce',
    });
  });

  it('takes the other key where the one an engine read is missing, and drops unusable ones', async () => {
    expect(
      await migrated({
        'fingerprint.threshold': { threshold: 31.2 },
        'fingerprint.thresholdOneInN': 1_000,
        'face.threshold': { oneInN: 100, threshold: 0.3 },
      }),
    ).toEqual({ 'fingerprint.thresholdOneInN': 1_000, 'face.thresholdOneInN': 100 });
  });
});
