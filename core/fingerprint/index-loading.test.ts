import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ageIndexMaterial, countRows } from '../storage/sqlite/testing.js';
import { movedPrint } from '../testing/fingerprints.js';
import { tempStore, type TempStore } from '../testing/store.js';
import { FingerprintService } from './service.js';
import { EMBEDDING_VERSION } from './index/embedding.js';
import { syntheticFeatureRecord } from './synthetic/index.js';
import { loadOrCreateTemplateKey } from './template/index.js';

/** More enrollments than one load chunk (500), so the in-memory index fills over several event-loop turns. */
const GALLERY = 1200;
const mobile = (i: number): string => `+4479113${String(i).padStart(5, '0')}`;

describe('FingerprintService start with an existing gallery', () => {
  let temp: TempStore;
  const start = (templateKey = loadOrCreateTemplateKey(temp.dataDir)): FingerprintService =>
    new FingerprintService({ enrollments: temp.store.enrollments, templateKey, pool: { size: 0 } });

  beforeAll(async () => {
    temp = await tempStore('fp-load-');
    const writer = start();
    await writer.enrollMany(
      Array.from({ length: GALLERY }, (_, i) => ({
        mobile: mobile(i),
        features: syntheticFeatureRecord(7000 + i),
      })),
    );
    await writer.close();
  });

  afterAll(async () => {
    await temp.dispose();
  });

  it('serves searches while the search index loads, with the same best answer once loaded', async () => {
    const service = start();
    try {
      // The constructor returns before the gallery is in memory.
      expect(await service.health()).toMatchObject({ search_index: 'loading' });
      expect((await service.health()).indexed_in_memory).toBeLessThan(GALLERY);
      const probe = movedPrint(syntheticFeatureRecord(7000 + 1100), 0.3, 12, -9);
      const early = (await service.searchFeatures(probe, 3)).candidates;
      expect(early[0]?.mobile).toBe(mobile(1100));

      // Changes made while loading are not undone by the load.
      expect(await service.deleteEnrollment(mobile(1150))).toBe(true);
      await service.enrollFeatures(mobile(1190), syntheticFeatureRecord(9999), { skipDuplicateCheck: true });

      await service.indexLoaded();
      // (One print was deleted by the first test.)
      expect(await service.health()).toMatchObject({ search_index: 'ready', indexed_in_memory: GALLERY - 1 });
      // The same best candidate and score. Below it the short list may differ: while loading, the star-edge votes
      // that help rank the second stage covered only the prints loaded so far.
      const loaded = (await service.searchFeatures(probe, 3)).candidates;
      expect(loaded[0]).toEqual(early[0]);
      for (const c of early) {
        const again = loaded.find((l) => l.id === c.id);
        if (again) expect(again.score).toBe(c.score);
      }
      const gone = movedPrint(syntheticFeatureRecord(7000 + 1150), 0.3, 12, -9);
      expect((await service.searchFeatures(gone, 3)).candidates.map((c) => c.mobile)).not.toContain(
        mobile(1150),
      );
      const replaced = movedPrint(syntheticFeatureRecord(9999), 0.3, 12, -9);
      expect((await service.searchFeatures(replaced, 1)).candidates[0]?.mobile).toBe(mobile(1190));
    } finally {
      await service.close();
    }
  });

  it('rebuilds entries of an older index version in the background, searching meanwhile', async () => {
    // As after an upgrade that changed the index version: no usable cylinders yet.
    ageIndexMaterial(temp.store, { dropCylinders: true });
    const count = (where: string): number => countRows(temp.store, 'fingerprint_enrollments', where);
    const service = start();
    try {
      expect(await service.health()).toMatchObject({ search_index: 'loading' });
      expect(count('cylinders IS NULL')).toBeGreaterThan(0);
      // A print not rebuilt yet is still found (its cylinders made from the template on the spot).
      const probe = movedPrint(syntheticFeatureRecord(7000 + 1000), 0.3, 12, -9);
      expect((await service.searchFeatures(probe, 1)).candidates[0]?.mobile).toBe(mobile(1000));
      await service.indexLoaded();
      expect(await service.health()).toMatchObject({ search_index: 'ready' });
      expect(count('cylinders IS NULL')).toBe(0);
      expect(count(`embedding_version <> ${EMBEDDING_VERSION}`)).toBe(0);
      expect((await service.searchFeatures(probe, 1)).candidates[0]?.mobile).toBe(mobile(1000));
    } finally {
      await service.close();
    }
  });

  it('reports a search index it cannot build, and keeps the stored data', async () => {
    ageIndexMaterial(temp.store, { dropCylinders: false });
    // A template key that does not open these templates (a key file restored from another machine's backup, say).
    const wrong = start(Buffer.alloc(32, 7));
    await wrong.indexLoaded();
    expect(await wrong.health()).toMatchObject({ search_index: 'degraded' });
    expect(String((await wrong.health()).search_index_error)).not.toBe('');
    await wrong.close();
    // Nothing was rewritten: with the right key the rows rebuild and search again.
    const service = start();
    try {
      await service.indexLoaded();
      // (One print was deleted by the first test.)
      expect(await service.health()).toMatchObject({ search_index: 'ready', indexed_in_memory: GALLERY - 1 });
    } finally {
      await service.close();
    }
  });

  it('stops loading when closed', async () => {
    const service = start();
    await service.close();
    await service.indexLoaded();
    expect((await service.health()).indexed_in_memory).toBeLessThan(GALLERY);
  });
});
