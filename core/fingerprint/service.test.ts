import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreError } from '../errors.js';
import { openStore, type Store } from '../storage/db.js';
import { SettingsStore } from '../storage/settings.js';
import { decodeImage } from '../imaging/decode.js';
import { movedPrint } from '../testing/fingerprints.js';
import { samplePhoto } from '../testing/images.js';
import { DEFAULT_FMR, scoreAtFmr } from './calibration.js';
import { FingerprintService } from './service.js';
import { DEFAULT_FINGERPRINT_SETTINGS } from './settings.js';
import { syntheticFeatureRecord, syntheticUpload } from './synthetic/index.js';

const ALICE = '+447911123456';
const BOB = '+447911654321';
const CAROL = '+447911123477';
const DAVE = '+447911123488';

function blankUpload(): ReturnType<typeof syntheticUpload> {
  const width = 300;
  const height = 400;
  return { format: 'png', width, height, rgb: Buffer.alloc(width * height * 3, 200), dpi: 500 };
}

describe('FingerprintService', () => {
  let dir: string;
  let store: Store;
  let settings: SettingsStore;
  let service: FingerprintService;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fp-service-'));
    store = openStore(dir);
    settings = new SettingsStore(store.db);
    // Pin the operating point (1 false match in 100) so these tests exercise decisions, not the calibration table.
    settings.set('fingerprint.thresholdOneInN', 100);
    settings.set('fingerprint.dedupOneInN', 100);
    service = new FingerprintService({ db: store.db, dataDir: store.dataDir, settings, pool: { size: 1 } });
  });

  afterAll(async () => {
    await service.close();
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('enrolls, then verifies a genuine impression and rejects another finger', async () => {
    const enrolled = await service.enroll(ALICE, syntheticUpload(101, 0), { requestId: 't' });
    expect(enrolled).toMatchObject({ model_version: service.modelVersion, replaced: false });
    expect(enrolled.duplicate_of).toBeUndefined();
    const genuine = await service.verify(ALICE, syntheticUpload(101, 1));
    expect(genuine.status).toBe('SUCCESS');
    expect(genuine.score).toBeGreaterThanOrEqual(service.threshold());
    expect(genuine.extra).toMatchObject({ mobile_number: ALICE, threshold: service.threshold() });
    const impostor = await service.verify(ALICE, syntheticUpload(202, 0));
    expect(impostor).toMatchObject({ status: 'REJECTED', reason: 'no_match' });
    expect(impostor.score).toBeLessThan(genuine.score);
  });

  it('ignores a placeholder density (72 dpi) instead of resampling the print sevenfold', async () => {
    const { dpi: _dpi, ...asSensor } = syntheticUpload(101, 1);
    const placeholder = await service.preview({ ...asSensor, dpi: 72 });
    expect(placeholder).toEqual(await service.preview(asSensor));
    expect(placeholder.width).toBe(300);
  });

  it('rejects an unknown number as not enrolled with score 0', async () => {
    expect(await service.verify('+447911123499', syntheticUpload(101, 1))).toMatchObject({
      status: 'REJECTED',
      reason: 'not_enrolled',
      score: 0,
    });
  });

  it('stores only an encrypted template and a vector row', () => {
    const row = store.db
      .prepare('SELECT id, template FROM fingerprint_enrollments WHERE mobile = ?')
      .get(ALICE) as { id: number; template: Buffer };
    expect(row.template.subarray(0, 4).toString('latin1')).toBe('IDVE');
    expect(row.template.includes(Buffer.from('IDVF'))).toBe(false);
    const vectors = store.db
      .prepare('SELECT COUNT(*) AS n FROM fingerprint_vectors WHERE rowid = ?')
      .get(BigInt(row.id)) as { n: number };
    expect(vectors.n).toBe(1);
  });

  it('refuses a print below the quality floor with QUALITY_TOO_LOW and the score', async () => {
    settings.set('fingerprint.qualityFloor', 100);
    try {
      const error = await service
        .enroll(BOB, syntheticUpload(303, 0), { requestId: 't' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CoreError);
      expect((error as CoreError).code).toBe('QUALITY_TOO_LOW');
      expect((error as CoreError).details.extra).toHaveProperty('quality_score');
      expect((error as CoreError).details.extra).toHaveProperty('reason');
      expect(service.enrollment(BOB)).toBeUndefined();
    } finally {
      settings.set('fingerprint.qualityFloor', DEFAULT_FINGERPRINT_SETTINGS.qualityFloor);
    }
  });

  it('refuses a face photo and a blank image as NOT_A_FINGERPRINT, saying why, and rejects them at verification', async () => {
    const face = await decodeImage(samplePhoto(2), { field: 'file' });
    for (const image of [face, blankUpload()]) {
      const error = await service.enroll(BOB, image, { requestId: 't' }).catch((e: unknown) => e);
      expect((error as CoreError).code).toBe('NOT_A_FINGERPRINT');
      expect((error as CoreError).message).toMatch(/not a fingerprint/);
      const extra = (error as CoreError).details.extra as { fingerprint_likeness: number; reason: string };
      expect(extra.reason).toBe('not_a_fingerprint');
      expect(extra.fingerprint_likeness).toBeLessThan(50);
      expect(service.enrollment(BOB)).toBeUndefined();
      expect(await service.verify(ALICE, image)).toMatchObject({
        status: 'REJECTED',
        reason: 'not_a_fingerprint',
        score: 0,
      });
    }
    const enrolled = await service.enroll(BOB, syntheticUpload(303, 0), { requestId: 't' });
    expect(enrolled.fingerprint_likeness).toBeGreaterThanOrEqual(50);
    service.deleteEnrollment(BOB);
  });

  it('flags the same finger enrolled under another number, or refuses it when set to reject', async () => {
    const flagged = await service.enroll(BOB, syntheticUpload(101, 2), { requestId: 't' });
    expect(flagged.duplicate_of).toBe('+4479*****456');
    settings.set('fingerprint.dedup', 'reject');
    try {
      const error = await service
        .enroll(CAROL, syntheticUpload(101, 3), { requestId: 't' })
        .catch((e: unknown) => e);
      expect((error as CoreError).code).toBe('CONFLICT');
      expect((error as CoreError).details.extra).toMatchObject({ duplicate_of: '+4479*****456' });
      expect(service.enrollment(CAROL)).toBeUndefined();
      // A finger enrolled only under one's own number is no duplicate: re-enrolling replaces it.
      await service.enroll(DAVE, syntheticUpload(505, 0), { requestId: 't' });
      const again = await service.enroll(DAVE, syntheticUpload(505, 1), { requestId: 't' });
      expect(again).toMatchObject({ replaced: true });
      expect(again.duplicate_of).toBeUndefined();
    } finally {
      settings.set('fingerprint.dedup', 'flag');
      service.deleteEnrollment(DAVE);
    }
  });

  it('finds the enrolled finger first in a 1:N search', async () => {
    await service.enroll(CAROL, syntheticUpload(303, 0), { requestId: 't' });
    const result = await service.search(syntheticUpload(303, 1), 3);
    expect(result.gallery_size).toBe(3);
    expect(result.candidates[0]?.mobile).toBe(CAROL);
    expect(result.candidates[0]!.score).toBeGreaterThan(result.candidates[1]?.score ?? 0);
  });

  it('finds a finger placed upside down through the embedding when the reader may face any way', () => {
    const numbers = Array.from({ length: 30 }, (_, i) => `+4479112360${String(i).padStart(2, '0')}`);
    numbers.forEach((mobile, i) =>
      service.enrollFeatures(mobile, syntheticFeatureRecord(700 + i), { skipDuplicateCheck: true }),
    );
    try {
      const probe = movedPrint(syntheticFeatureRecord(712), Math.PI, 10, -5);
      settings.set('fingerprint.turn', 'any');
      const found = service.searchFeatures(probe, 1);
      expect(found.candidates[0]?.mobile).toBe(numbers[12]);
      expect(found.candidates[0]!.score).toBeGreaterThan(found.threshold);
      // A reader fixed in place (the default setting): a finger turned upside down is no match for its enrollment,
      // only chance alignments of a few minutiae remain (this test's threshold is 1 in 100).
      settings.set('fingerprint.turn', 'upright');
      const upright = service.searchFeatures(probe, 5);
      const same = upright.candidates.find((c) => c.mobile === numbers[12]);
      expect(same?.score ?? 0).toBeLessThan(0.01 * found.candidates[0]!.score);
      expect(same?.score ?? 0).toBeLessThan(scoreAtFmr(DEFAULT_FMR));
      expect(upright.threshold).toBeLessThan(found.threshold);
    } finally {
      settings.set('fingerprint.turn', 'upright');
      for (const mobile of numbers) service.deleteEnrollment(mobile);
    }
  });

  it('hands the cylinders the candidates of the vector, minutia hash and star-edge indexes', () => {
    const numbers = Array.from({ length: 30 }, (_, i) => `+4479112350${String(i).padStart(2, '0')}`);
    numbers.forEach((mobile, i) =>
      service.enrollFeatures(mobile, syntheticFeatureRecord(500 + i), { skipDuplicateCheck: true }),
    );
    const whole = syntheticFeatureRecord(517);
    // The upper 60% of the print, turned and shifted: its global histogram changes, its inner cylinders do not.
    const cut = Math.min(...whole.minutiae.map((m) => m.y)) + 0.6 * whole.height;
    const probe = movedPrint({ ...whole, minutiae: whole.minutiae.filter((m) => m.y < cut) }, 0.4, 20, -15);
    settings.set('fingerprint.searchCandidates', 1);
    settings.set('fingerprint.searchShortlist', 4);
    const id17 = (
      store.db.prepare('SELECT id FROM fingerprint_enrollments WHERE mobile = ?').get(numbers[17]) as {
        id: number;
      }
    ).id;
    try {
      expect(service.searchFeatures(probe, 1).candidates[0]?.mobile).toBe(numbers[17]);
      const both = service.firstStageCandidates(probe);
      expect(both.length).toBeGreaterThan(4);
      expect(both).toContain(id17);
      // Each of the other two indexes alone hands on the finger the vector index misses.
      settings.set('fingerprint.searchStarCandidates', 0);
      expect(service.firstStageCandidates(probe)).toContain(id17);
      settings.set('fingerprint.searchHashCandidates', 0);
      expect(service.firstStageCandidates(probe)).toEqual(both.slice(0, 4));
      settings.set('fingerprint.searchStarCandidates', 3);
      expect(service.firstStageCandidates(probe)).toContain(id17);
    } finally {
      const d = DEFAULT_FINGERPRINT_SETTINGS;
      settings.set('fingerprint.searchCandidates', d.candidates);
      settings.set('fingerprint.searchShortlist', d.shortlist);
      settings.set('fingerprint.searchHashCandidates', d.hashCandidates);
      settings.set('fingerprint.searchStarCandidates', d.starCandidates);
      for (const mobile of numbers) service.deleteEnrollment(mobile);
    }
  });

  it('requires re-enrollment after a model-version change and lists the affected numbers', async () => {
    const upgraded = new FingerprintService({
      db: store.db,
      dataDir: store.dataDir,
      settings,
      pool: { size: 0 },
      modelVersion: 'fp-next',
    });
    try {
      expect(await upgraded.verify(CAROL, syntheticUpload(303, 1))).toMatchObject({
        status: 'REJECTED',
        reason: 'reenrollment_required',
        score: 0,
      });
      expect(
        upgraded
          .reenrollmentReport()
          .map((e) => e.mobile_number)
          .sort(),
      ).toEqual([ALICE, BOB, CAROL].sort());
      await upgraded.enroll(CAROL, syntheticUpload(303, 0), { requestId: 't' });
      expect(upgraded.enrollment(CAROL)?.model_version).toBe('fp-next');
      expect(upgraded.reenrollmentReport().map((e) => e.mobile_number)).not.toContain(CAROL);
      expect(service.enrollment(CAROL)?.reenrollment_required).toBe(true);
    } finally {
      await upgraded.close();
    }
  });

  it('deletes the template and the vector row', () => {
    const { id } = store.db.prepare('SELECT id FROM fingerprint_enrollments WHERE mobile = ?').get(BOB) as {
      id: number;
    };
    const held = service.health().indexed_in_memory as number;
    expect(service.deleteEnrollment(BOB)).toBe(true);
    expect(service.enrollment(BOB)).toBeUndefined();
    // The in-memory cylinders and hash postings go with the row.
    expect(service.health().indexed_in_memory).toBe(held - 1);
    expect(service.firstStageCandidates(syntheticFeatureRecord(1))).not.toContain(id);
    expect(
      (
        store.db.prepare('SELECT COUNT(*) AS n FROM fingerprint_vectors WHERE rowid = ?').get(BigInt(id)) as {
          n: number;
        }
      ).n,
    ).toBe(0);
    expect(service.deleteEnrollment(BOB)).toBe(false);
  });
});
