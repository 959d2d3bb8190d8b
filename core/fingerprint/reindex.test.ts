import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countRows, insertSchema10Enrollment, openAtSchema } from '../storage/sqlite/testing.js';
import { openSqliteStore } from '../storage/sqlite/sqlite-store.js';
import { FINGERPRINT_MODEL_VERSION } from './model-version.js';
import { extractFeatures } from './extract/index.js';
import { computeEmbedding, EMBEDDING_VERSION } from './index/embedding.js';
import { FingerprintService } from './service.js';
import { syntheticFingerprint } from './synthetic/index.js';
import { encodeTemplate, loadOrCreateTemplateKey, sealTemplate } from './template/index.js';

const MOBILES = ['+447911000001', '+447911000002', '+447911000003'];

describe('search index upgrade (migration 11)', () => {
  let dir = '';
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps vectors of enrollments made before it and rebuilds their cylinders when the engine starts', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fp-reindex-'));
    // A data dir at schema 10: unsharded vectors, no cylinders column.
    const old = openAtSchema(dir, 11);
    const key = loadOrCreateTemplateKey(dir);
    MOBILES.forEach((mobile, i) => {
      const features = extractFeatures(syntheticFingerprint(600 + i, 0));
      const template = sealTemplate(
        encodeTemplate({ modelVersion: FINGERPRINT_MODEL_VERSION, features }),
        key,
        mobile,
      );
      insertSchema10Enrollment(
        old,
        {
          mobile,
          template,
          modelVersion: FINGERPRINT_MODEL_VERSION,
          quality: features.quality,
          minutiaeCount: features.minutiae.length,
        },
        computeEmbedding(features),
      );
    });
    old.close();

    const store = openSqliteStore(dir);
    const count = (table: string, where?: string): number => countRows(store, table, where);
    expect(count('fingerprint_vectors')).toBe(MOBILES.length);
    expect(count('fingerprint_enrollments', 'cylinders IS NULL')).toBe(MOBILES.length);
    const service = new FingerprintService({
      enrollments: store.enrollments,
      templateKey: key,
      pool: { size: 0 },
    });
    try {
      await service.indexLoaded();
      expect(count('fingerprint_enrollments', 'cylinders IS NULL')).toBe(0);
      expect(count('fingerprint_enrollments', `embedding_version <> ${EMBEDDING_VERSION}`)).toBe(0);
      expect(await service.reindex()).toBe(0);
      // The in-memory index (decrypted cylinders, minutia hashes) holds the rebuilt enrollments.
      expect((await service.health()).indexed_in_memory).toBe(MOBILES.length);
      const probe = extractFeatures(syntheticFingerprint(601, 1));
      expect((await service.searchFeatures(probe, 1)).candidates[0]?.mobile).toBe(MOBILES[1]);
    } finally {
      await service.close();
      await store.close();
    }
  });
});
