import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../storage/db.js';
import { movedPrint } from '../testing/fingerprints.js';
import { FingerprintService } from './service.js';
import { EMBEDDING_VERSION } from './index/embedding.js';
import { KEY_FILE_NAME } from './template/key-file.js';
import { syntheticFeatureRecord } from './synthetic/index.js';

/** More enrollments than one load chunk (500), so the in-memory index fills over several event-loop turns. */
const GALLERY = 1200;
const mobile = (i: number): string => `+4479113${String(i).padStart(5, '0')}`;

describe('FingerprintService start with an existing gallery', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fp-load-'));
    store = openStore(dir);
    const writer = new FingerprintService({ db: store.db, dataDir: store.dataDir, pool: { size: 0 } });
    for (let i = 0; i < GALLERY; i++)
      writer.enrollFeatures(mobile(i), syntheticFeatureRecord(7000 + i), { skipDuplicateCheck: true });
    await writer.close();
  });

  afterAll(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves searches while the search index loads, with the same best answer once loaded', async () => {
    const service = new FingerprintService({ db: store.db, dataDir: store.dataDir, pool: { size: 0 } });
    try {
      // The constructor returns before the gallery is in memory.
      expect(await service.health()).toMatchObject({ search_index: 'loading' });
      expect((await service.health()).indexed_in_memory).toBeLessThan(GALLERY);
      const probe = movedPrint(syntheticFeatureRecord(7000 + 1100), 0.3, 12, -9);
      const early = service.searchFeatures(probe, 3).candidates;
      expect(early[0]?.mobile).toBe(mobile(1100));

      // Changes made while loading are not undone by the load.
      expect(await service.deleteEnrollment(mobile(1150))).toBe(true);
      service.enrollFeatures(mobile(1190), syntheticFeatureRecord(9999), { skipDuplicateCheck: true });

      await service.indexLoaded();
      // (One print was deleted by the first test.)
      expect(await service.health()).toMatchObject({ search_index: 'ready', indexed_in_memory: GALLERY - 1 });
      // The same best candidate and score. Below it the short list may differ: while loading, the star-edge votes
      // that help rank the second stage covered only the prints loaded so far.
      const loaded = service.searchFeatures(probe, 3).candidates;
      expect(loaded[0]).toEqual(early[0]);
      for (const c of early) {
        const again = loaded.find((l) => l.id === c.id);
        if (again) expect(again.score).toBe(c.score);
      }
      const gone = movedPrint(syntheticFeatureRecord(7000 + 1150), 0.3, 12, -9);
      expect(service.searchFeatures(gone, 3).candidates.map((c) => c.mobile)).not.toContain(mobile(1150));
      const replaced = movedPrint(syntheticFeatureRecord(9999), 0.3, 12, -9);
      expect(service.searchFeatures(replaced, 1).candidates[0]?.mobile).toBe(mobile(1190));
    } finally {
      await service.close();
    }
  });

  it('rebuilds entries of an older index version in the background, searching meanwhile', async () => {
    // As after an upgrade that changed the index version: no usable cylinders yet.
    store.db.prepare('UPDATE fingerprint_enrollments SET cylinders = NULL, embedding_version = 1').run();
    const count = (sql: string): number => (store.db.prepare(sql).get() as { n: number }).n;
    const service = new FingerprintService({ db: store.db, dataDir: store.dataDir, pool: { size: 0 } });
    try {
      expect(await service.health()).toMatchObject({ search_index: 'loading' });
      expect(
        count('SELECT COUNT(*) AS n FROM fingerprint_enrollments WHERE cylinders IS NULL'),
      ).toBeGreaterThan(0);
      // A print not rebuilt yet is still found (its cylinders made from the template on the spot).
      const probe = movedPrint(syntheticFeatureRecord(7000 + 1000), 0.3, 12, -9);
      expect(service.searchFeatures(probe, 1).candidates[0]?.mobile).toBe(mobile(1000));
      await service.indexLoaded();
      expect(await service.health()).toMatchObject({ search_index: 'ready' });
      expect(count('SELECT COUNT(*) AS n FROM fingerprint_enrollments WHERE cylinders IS NULL')).toBe(0);
      expect(
        count(
          `SELECT COUNT(*) AS n FROM fingerprint_enrollments WHERE embedding_version <> ${EMBEDDING_VERSION}`,
        ),
      ).toBe(0);
      expect(service.searchFeatures(probe, 1).candidates[0]?.mobile).toBe(mobile(1000));
    } finally {
      await service.close();
    }
  });

  it('reports a search index it cannot build, and keeps the stored data', async () => {
    // A key file that does not open these templates (restored from another machine's backup, say).
    const file = path.join(store.dataDir, KEY_FILE_NAME);
    const key = fs.readFileSync(file);
    store.db.prepare('UPDATE fingerprint_enrollments SET embedding_version = 1').run();
    fs.writeFileSync(file, Buffer.alloc(32, 7));
    try {
      const service = new FingerprintService({ db: store.db, dataDir: store.dataDir, pool: { size: 0 } });
      await service.indexLoaded();
      expect(await service.health()).toMatchObject({ search_index: 'degraded' });
      expect(String((await service.health()).search_index_error)).not.toBe('');
      await service.close();
    } finally {
      fs.writeFileSync(file, key);
    }
    // Nothing was rewritten: with the right key the rows rebuild and search again.
    const service = new FingerprintService({ db: store.db, dataDir: store.dataDir, pool: { size: 0 } });
    try {
      await service.indexLoaded();
      // (One print was deleted by the first test.)
      expect(await service.health()).toMatchObject({ search_index: 'ready', indexed_in_memory: GALLERY - 1 });
    } finally {
      await service.close();
    }
  });

  it('stops loading when closed', async () => {
    const service = new FingerprintService({ db: store.db, dataDir: store.dataDir, pool: { size: 0 } });
    await service.close();
    await service.indexLoaded();
    expect((await service.health()).indexed_in_memory).toBeLessThan(GALLERY);
  });
});
