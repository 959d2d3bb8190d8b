import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../storage/db.js';
import { allMigrations } from '../storage/migrations/index.js';
import { FINGERPRINT_MODEL_VERSION } from './calibration.js';
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
    const old = openStore(
      dir,
      allMigrations.filter((m) => m.version < 11),
    );
    const key = loadOrCreateTemplateKey(old.dataDir);
    const prints = MOBILES.map((_, i) => extractFeatures(syntheticFingerprint(600 + i, 0)));
    MOBILES.forEach((mobile, i) => {
      const features = prints[i]!;
      const template = sealTemplate(
        encodeTemplate({ modelVersion: FINGERPRINT_MODEL_VERSION, features }),
        key,
        mobile,
      );
      const now = new Date().toISOString();
      const id = old.db
        .prepare(
          `INSERT INTO fingerprint_enrollments (mobile, template, model_version, embedding_version, quality, minutiae_count, created_at, updated_at)
           VALUES (?, ?, ?, 1, ?, ?, ?, ?)`,
        )
        .run(
          mobile,
          template,
          FINGERPRINT_MODEL_VERSION,
          features.quality,
          features.minutiae.length,
          now,
          now,
        ).lastInsertRowid;
      const e = computeEmbedding(features);
      old.db
        .prepare('INSERT INTO fingerprint_vectors (rowid, embedding) VALUES (?, ?)')
        .run(BigInt(id), Buffer.from(e.buffer, e.byteOffset, e.byteLength));
    });
    old.close();

    const store = openStore(dir);
    const count = (sql: string): number => (store.db.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT COUNT(*) AS n FROM fingerprint_vectors')).toBe(MOBILES.length);
    expect(count('SELECT COUNT(*) AS n FROM fingerprint_enrollments WHERE cylinders IS NULL')).toBe(
      MOBILES.length,
    );
    const service = new FingerprintService({ db: store.db, dataDir: store.dataDir, pool: { size: 0 } });
    try {
      expect(count('SELECT COUNT(*) AS n FROM fingerprint_enrollments WHERE cylinders IS NULL')).toBe(0);
      expect(
        count(
          `SELECT COUNT(*) AS n FROM fingerprint_enrollments WHERE embedding_version <> ${EMBEDDING_VERSION}`,
        ),
      ).toBe(0);
      expect(service.reindex()).toBe(0);
      // The in-memory index (decrypted cylinders, minutia hashes) holds the rebuilt enrollments.
      expect((await service.health()).indexed_in_memory).toBe(MOBILES.length);
      const probe = extractFeatures(syntheticFingerprint(601, 1));
      expect(service.searchFeatures(probe, 1).candidates[0]?.mobile).toBe(MOBILES[1]);
    } finally {
      await service.close();
      store.close();
    }
  });
});
