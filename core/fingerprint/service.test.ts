import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreError } from '../errors.js';
import type { Settings } from '../settings/settings.js';
import { storedTemplate, vectorRows } from '../storage/sqlite/testing.js';
import { movedPrint } from '../testing/fingerprints.js';
import { tempStore, type TempStore } from '../testing/store.js';
import { decodeImage } from '../imaging/decode.js';
import { samplePhoto } from '../testing/images.js';
import { DEFAULT_FMR, scoreAtFmr } from './calibration.js';
import { FingerprintService } from './service.js';
import { DEFAULT_FINGERPRINT_SETTINGS } from './settings.js';
import { syntheticFeatureRecord, syntheticUpload } from './synthetic/index.js';
import { loadOrCreateTemplateKey } from './template/index.js';

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
  let temp: TempStore;
  let settings: Settings;
  let service: FingerprintService;
  const engine = (options: { modelVersion?: string; poolSize?: number } = {}): FingerprintService =>
    new FingerprintService({
      enrollments: temp.store.enrollments,
      templateKey: loadOrCreateTemplateKey(temp.dataDir),
      settings,
      pool: { size: options.poolSize ?? 1 },
      ...(options.modelVersion ? { modelVersion: options.modelVersion } : {}),
    });
  const idOf = async (mobile: string): Promise<number> => (await temp.store.enrollments.get(mobile))!.id;

  beforeAll(async () => {
    temp = await tempStore('fp-service-');
    settings = temp.settings;
    // Pin the operating point (1 false match in 100) so these tests exercise decisions, not the calibration table.
    await settings.setMany({ 'fingerprint.thresholdOneInN': 100, 'fingerprint.dedupOneInN': 100 });
    service = engine();
  });

  afterAll(async () => {
    await service.close();
    await temp.dispose();
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

  it('stores only an encrypted template and a vector row', async () => {
    const template = storedTemplate(temp.store, ALICE)!;
    expect(template.subarray(0, 4).toString('latin1')).toBe('IDVE');
    expect(template.includes(Buffer.from('IDVF'))).toBe(false);
    expect(vectorRows(temp.store, await idOf(ALICE))).toBe(1);
  });

  it('refuses a print below the quality floor with QUALITY_TOO_LOW and the score', async () => {
    await settings.setMany({ 'fingerprint.qualityFloor': 100 });
    try {
      const error = await service
        .enroll(BOB, syntheticUpload(303, 0), { requestId: 't' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CoreError);
      expect((error as CoreError).code).toBe('QUALITY_TOO_LOW');
      expect((error as CoreError).details.extra).toHaveProperty('quality_score');
      expect((error as CoreError).details.extra).toHaveProperty('reason');
      expect(await service.enrollment(BOB)).toBeUndefined();
    } finally {
      await settings.setMany({ 'fingerprint.qualityFloor': DEFAULT_FINGERPRINT_SETTINGS.qualityFloor });
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
      expect(await service.enrollment(BOB)).toBeUndefined();
      expect(await service.verify(ALICE, image)).toMatchObject({
        status: 'REJECTED',
        reason: 'not_a_fingerprint',
        score: 0,
      });
    }
    const enrolled = await service.enroll(BOB, syntheticUpload(303, 0), { requestId: 't' });
    expect(enrolled.fingerprint_likeness).toBeGreaterThanOrEqual(50);
    await service.deleteEnrollment(BOB);
  });

  it('flags the same finger enrolled under another number, or refuses it when set to reject', async () => {
    const flagged = await service.enroll(BOB, syntheticUpload(101, 2), { requestId: 't' });
    expect(flagged.duplicate_of).toBe('+4479*****456');
    await settings.set('fingerprint.dedup', 'reject');
    try {
      const error = await service
        .enroll(CAROL, syntheticUpload(101, 3), { requestId: 't' })
        .catch((e: unknown) => e);
      expect((error as CoreError).code).toBe('CONFLICT');
      expect((error as CoreError).details.extra).toMatchObject({ duplicate_of: '+4479*****456' });
      expect(await service.enrollment(CAROL)).toBeUndefined();
      // A finger enrolled only under one's own number is no duplicate: re-enrolling replaces it.
      await service.enroll(DAVE, syntheticUpload(505, 0), { requestId: 't' });
      const again = await service.enroll(DAVE, syntheticUpload(505, 1), { requestId: 't' });
      expect(again).toMatchObject({ replaced: true });
      expect(again.duplicate_of).toBeUndefined();
    } finally {
      await settings.set('fingerprint.dedup', 'flag');
      await service.deleteEnrollment(DAVE);
    }
  });

  it('lets only one of two enrollments of one finger made at once through when duplicates are refused', async () => {
    const [first, second] = ['+447911123501', '+447911123502'];
    await settings.set('fingerprint.dedup', 'reject');
    try {
      const outcomes = await Promise.allSettled([
        service.enroll(first, syntheticUpload(606, 0), { requestId: 't' }),
        service.enroll(second, syntheticUpload(606, 1), { requestId: 't' }),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = outcomes.find((o) => o.status === 'rejected');
      expect((refused?.reason as CoreError).code).toBe('CONFLICT');
    } finally {
      await settings.set('fingerprint.dedup', 'flag');
      for (const mobile of [first, second]) await service.deleteEnrollment(mobile);
    }
  });

  it('finds the enrolled finger first in a 1:N search', async () => {
    await service.enroll(CAROL, syntheticUpload(303, 0), { requestId: 't' });
    const result = await service.search(syntheticUpload(303, 1), 3);
    expect(result.gallery_size).toBe(3);
    expect(result.candidates[0]?.mobile).toBe(CAROL);
    expect(result.candidates[0]!.score).toBeGreaterThan(result.candidates[1]?.score ?? 0);
  });

  it('finds a finger placed upside down through the embedding when the reader may face any way', async () => {
    const numbers = Array.from({ length: 30 }, (_, i) => `+4479112360${String(i).padStart(2, '0')}`);
    await service.enrollMany(
      numbers.map((mobile, i) => ({ mobile, features: syntheticFeatureRecord(700 + i) })),
    );
    try {
      const probe = movedPrint(syntheticFeatureRecord(712), Math.PI, 10, -5);
      await settings.set('fingerprint.turn', 'any');
      const found = await service.searchFeatures(probe, 1);
      expect(found.candidates[0]?.mobile).toBe(numbers[12]);
      expect(found.candidates[0]!.score).toBeGreaterThan(found.threshold);
      // A reader fixed in place (the default setting): a finger turned upside down is no match for its enrollment,
      // only chance alignments of a few minutiae remain (this test's threshold is 1 in 100).
      await settings.set('fingerprint.turn', 'upright');
      const upright = await service.searchFeatures(probe, 5);
      const same = upright.candidates.find((c) => c.mobile === numbers[12]);
      expect(same?.score ?? 0).toBeLessThan(0.01 * found.candidates[0]!.score);
      expect(same?.score ?? 0).toBeLessThan(scoreAtFmr(DEFAULT_FMR));
      expect(upright.threshold).toBeLessThan(found.threshold);
    } finally {
      await settings.set('fingerprint.turn', 'upright');
      for (const mobile of numbers) await service.deleteEnrollment(mobile);
    }
  });

  it('hands the cylinders the candidates of the vector, minutia hash and star-edge indexes', async () => {
    const numbers = Array.from({ length: 30 }, (_, i) => `+4479112350${String(i).padStart(2, '0')}`);
    await service.enrollMany(
      numbers.map((mobile, i) => ({ mobile, features: syntheticFeatureRecord(500 + i) })),
    );
    const whole = syntheticFeatureRecord(517);
    // The upper 60% of the print, turned and shifted: its global histogram changes, its inner cylinders do not.
    const cut = Math.min(...whole.minutiae.map((m) => m.y)) + 0.6 * whole.height;
    const probe = movedPrint({ ...whole, minutiae: whole.minutiae.filter((m) => m.y < cut) }, 0.4, 20, -15);
    await settings.set('fingerprint.searchCandidates', 1);
    await settings.set('fingerprint.searchShortlist', 4);
    const id17 = await idOf(numbers[17]!);
    try {
      expect((await service.searchFeatures(probe, 1)).candidates[0]?.mobile).toBe(numbers[17]);
      const both = await service.firstStageCandidates(probe);
      expect(both.length).toBeGreaterThan(4);
      expect(both).toContain(id17);
      // Each of the other two indexes alone hands on the finger the vector index misses.
      await settings.set('fingerprint.searchStarCandidates', 0);
      expect(await service.firstStageCandidates(probe)).toContain(id17);
      await settings.set('fingerprint.searchHashCandidates', 0);
      expect(await service.firstStageCandidates(probe)).toEqual(both.slice(0, 4));
      await settings.set('fingerprint.searchStarCandidates', 3);
      expect(await service.firstStageCandidates(probe)).toContain(id17);
    } finally {
      const d = DEFAULT_FINGERPRINT_SETTINGS;
      await settings.set('fingerprint.searchCandidates', d.candidates);
      await settings.set('fingerprint.searchShortlist', d.shortlist);
      await settings.set('fingerprint.searchHashCandidates', d.hashCandidates);
      await settings.set('fingerprint.searchStarCandidates', d.starCandidates);
      for (const mobile of numbers) await service.deleteEnrollment(mobile);
    }
  });

  it('requires re-enrollment after a model-version change and lists the affected numbers', async () => {
    const upgraded = engine({ modelVersion: 'fp-next', poolSize: 0 });
    try {
      expect(await upgraded.verify(CAROL, syntheticUpload(303, 1))).toMatchObject({
        status: 'REJECTED',
        reason: 'reenrollment_required',
        score: 0,
      });
      expect((await upgraded.reenrollmentReport()).map((e) => e.mobile_number).sort()).toEqual(
        [ALICE, BOB, CAROL].sort(),
      );
      await upgraded.enroll(CAROL, syntheticUpload(303, 0), { requestId: 't' });
      expect((await upgraded.enrollment(CAROL))?.model_version).toBe('fp-next');
      expect((await upgraded.reenrollmentReport()).map((e) => e.mobile_number)).not.toContain(CAROL);
      expect((await service.enrollment(CAROL))?.reenrollment_required).toBe(true);
    } finally {
      await upgraded.close();
    }
  });

  it('deletes the template and the vector row', async () => {
    const id = await idOf(BOB);
    const held = (await service.health()).indexed_in_memory as number;
    expect(await service.deleteEnrollment(BOB)).toBe(true);
    expect(await service.enrollment(BOB)).toBeUndefined();
    // The in-memory cylinders and hash postings go with the row.
    expect((await service.health()).indexed_in_memory).toBe(held - 1);
    expect(await service.firstStageCandidates(syntheticFeatureRecord(1))).not.toContain(id);
    expect(vectorRows(temp.store, id)).toBe(0);
    expect(await service.deleteEnrollment(BOB)).toBe(false);
  });
});
