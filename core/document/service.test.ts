import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreError } from '../errors.js';
import { decodeImage, type DecodedImage } from '../imaging/decode.js';
import { tempStore, type TempStore } from '../testing/store.js';
import { readMrz, disposeMrzReader } from './mrz/index.js';
import { markSvg } from './render/marks.js';
import { renderIdCard, type RenderCardOptions } from './render/render-card.js';
import { distortCard } from './render/distort.js';
import { createDocumentEngine } from './index.js';
import type { DocumentService } from './service.js';

async function card(options: RenderCardOptions = {}): Promise<DecodedImage> {
  return decodeImage(await renderIdCard(options), { field: 'id_card' });
}

async function codeOf(promise: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    return error instanceof CoreError ? error.code : `not a CoreError: ${String(error)}`;
  }
  return 'no error';
}

describe('DocumentService (real SQLite, real MRZ reader, real worker)', () => {
  let temp: TempStore;
  let engine: DocumentService;
  const create = (withMrz: boolean): Promise<DocumentService> =>
    createDocumentEngine({
      profiles: temp.store.documentProfiles,
      marks: temp.store.referenceMarks,
      ...(withMrz ? { readMrz } : {}),
    });
  let armsPng: Buffer;

  beforeAll(async () => {
    temp = await tempStore('idv-doc-');
    engine = await create(true);
    armsPng = await sharp(Buffer.from(markSvg('arms', 1.5)))
      .png()
      .toBuffer();
  });

  afterAll(async () => {
    await engine.dispose();
    await disposeMrzReader();
    await temp.dispose();
  });

  it('seeds the built-in profiles and validates edits', async () => {
    expect((await engine.listProfiles()).map((p) => p.name)).toEqual([
      'default',
      'drivers_licence',
      'national_id',
    ]);
    const saved = await engine.saveProfile({
      name: 'marks',
      features: [{ feature: 'reference_mark', min_score: 0.5 }],
    });
    expect(saved).toMatchObject({ name: 'marks', built_in: false });
    expect(
      await codeOf(() => engine.saveProfile({ name: 'marks', features: [{ feature: 'x', min_score: 0.5 }] })),
    ).toBe('FIELD_INVALID');
    expect(await codeOf(() => engine.deleteProfile('default'))).toBe('CONFLICT');
    expect(await codeOf(() => engine.deleteProfile('nope'))).toBe('NOT_FOUND');
    expect(await codeOf(engine.checkIdCard(await card(), { profile: 'nope' }))).toBe('FIELD_INVALID');
  });

  it('registers reference marks with precomputed keypoints and refuses bad ones', async () => {
    const mark = await engine.addReferenceMark('Utopia arms', armsPng);
    expect(mark).toMatchObject({ name: 'Utopia arms', width: 300, height: 360 });
    expect(mark.keypoints).toBeGreaterThan(200);
    expect(await engine.listReferenceMarks()).toEqual([mark]);
    expect((await sharp(await engine.referenceMarkPreview(mark.id)).metadata()).width).toBe(300);
    expect(await codeOf(engine.addReferenceMark('Utopia arms', armsPng))).toBe('CONFLICT');
    expect(await codeOf(engine.addReferenceMark('text', Buffer.from('not an image')))).toBe(
      'IMAGE_UNSUPPORTED',
    );
    const flat = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#777' } })
      .png()
      .toBuffer();
    expect(await codeOf(engine.addReferenceMark('flat', flat))).toBe('QUALITY_TOO_LOW');
  });

  it('passes a card showing the registered mark and rejects a look-alike', async () => {
    const genuine = await engine.checkIdCard(await card({ corruptMrz: 'document_number' }), {
      profile: 'marks',
    });
    expect(genuine).toMatchObject({ status: 'SUCCESS' });
    expect(genuine.extra).toMatchObject({ feature_detected: 'reference_mark', profile: 'marks' });
    expect(genuine.extra?.region).not.toBeNull();
    const fake = await engine.checkIdCard(await card({ mark: 'lookalike' }), { profile: 'marks' });
    expect(fake).toMatchObject({ status: 'REJECTED', reason: 'feature_not_found' });
    expect(fake.score).toBeLessThan(0.5);
  });

  it('reports regions in the pixels of a large photo (matched at working size)', async () => {
    const big = await decodeImage(await distortCard(await renderIdCard({ variant: 'dl' }), { scale: 2.5 }), {
      field: 'id_card',
    });
    const profile = {
      name: 'x',
      description: '',
      features: [
        { feature: 'reference_mark' as const, min_score: 0.5 },
        { feature: 'pdf417' as const, min_score: 0.9 },
      ],
      reference_marks: [],
    };
    const [mark, pdf] = await engine.runFeatures(big, profile);
    expect(mark?.score).toBeGreaterThanOrEqual(0.5);
    expect(pdf?.score).toBe(1);
    // The mark is printed at x 826-976 of the 1011-wide card; the barcode starts at x 320, y 440.
    expect(mark?.region?.x).toBeGreaterThan(800 * 2.5);
    expect(pdf?.region?.x).toBeGreaterThan(300 * 2.5);
    expect(pdf?.region?.y).toBeGreaterThan(420 * 2.5);
  });

  it('keeps marks across a restart (keypoints read back from SQLite)', async () => {
    const again = await create(false);
    try {
      const result = await again.checkIdCard(await card({ person: 2 }), { profile: 'marks' });
      expect(result.status).toBe('SUCCESS');
    } finally {
      await again.dispose();
    }
  });

  it('default profile: a valid MRZ passes, a wrong check digit does not', async () => {
    const good = await engine.checkIdCard(await card({ ghost: false }));
    expect(good).toMatchObject({ status: 'SUCCESS' });
    expect(good.extra).toMatchObject({ feature_detected: 'mrz', profile: 'default' });
    const bad = await engine.checkIdCard(await card({ ghost: false, corruptMrz: 'document_number' }));
    expect(bad).toMatchObject({ status: 'REJECTED', reason: 'feature_not_found' });
    const mrz = (bad.extra?.features as { feature: string; details: Record<string, unknown> }[]).find(
      (f) => f.feature === 'mrz',
    );
    expect(mrz?.details.valid).toBe(false);
  });

  it('drivers_licence profile: an AAMVA PDF417 passes, an ID card without one does not', async () => {
    const dl = await engine.checkIdCard(await card({ variant: 'dl', mark: 'none' }), {
      profile: 'drivers_licence',
    });
    expect(dl).toMatchObject({ status: 'SUCCESS', score: 1 });
    expect(dl.extra).toMatchObject({ feature_detected: 'pdf417' });
    const pdf = (dl.extra?.features as { feature: string; details: Record<string, unknown> }[]).find(
      (f) => f.feature === 'pdf417',
    );
    expect(pdf?.details).toMatchObject({ aamva: true, iin: '636000', version: 8, subfiles: ['DL'] });
    const id = await engine.checkIdCard(await card({ mark: 'none' }), { profile: 'drivers_licence' });
    expect(id).toMatchObject({ status: 'REJECTED', reason: 'feature_not_found' });
  });

  it('deletes marks', async () => {
    const [mark] = await engine.listReferenceMarks();
    await engine.deleteReferenceMark(mark!.id);
    expect(await engine.listReferenceMarks()).toEqual([]);
    expect(await codeOf(engine.deleteReferenceMark(mark!.id))).toBe('NOT_FOUND');
  });
});
