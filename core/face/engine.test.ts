import fs from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCoreError } from '../errors.js';
import { decodeImage, type DecodedImage } from '../imaging/decode.js';
import { createFaceEngine, type FaceEngineImpl, type FaceBox } from './index.js';
import { PEOPLE, idCardOf, rotated, samplePhoto, selfieOf } from './testing/fixtures.js';

let engine: FaceEngineImpl;
const decode = (bytes: Buffer): Promise<DecodedImage> => decodeImage(bytes, { field: 'image' });
const centre = (b: FaceBox): [number, number] => [b.x + b.width / 2, b.y + b.height / 2];

beforeAll(async () => {
  engine = await createFaceEngine();
});
afterAll(async () => {
  await engine.dispose();
});

describe('detect', () => {
  it('finds every face of a group photo with landmarks inside their boxes', async () => {
    const faces = await engine.detect(await decode(fs.readFileSync(samplePhoto(1))));
    expect(faces.length).toBe(3);
    for (const f of faces) {
      expect(f.landmarks5).toHaveLength(5);
      for (const [x, y] of f.landmarks5) {
        expect(x).toBeGreaterThan(f.box.x);
        expect(x).toBeLessThan(f.box.x + f.box.width);
        expect(y).toBeGreaterThan(f.box.y);
        expect(y).toBeLessThan(f.box.y + f.box.height);
      }
    }
  });

  it('finds the card portrait under every quarter turn and reports it in the given image pixels', async () => {
    const card = await idCardOf(PEOPLE.d);
    const upright = (await engine.detectOnCard(await decode(card)))[0]!;
    const [ux, uy] = centre(upright.box);
    const meta = { width: 1012, height: Math.round(1012 / 1.586) };
    // The centre of the portrait after a clockwise turn of the card.
    const expected = {
      90: [meta.height - uy, ux],
      180: [meta.width - ux, meta.height - uy],
      270: [uy, meta.width - ux],
    } as const;
    for (const deg of [90, 180, 270] as const) {
      const faces = await engine.detectOnCard(await decode(await rotated(card, deg)));
      const main = faces.reduce((a, b) => (a.box.width * a.box.height >= b.box.width * b.box.height ? a : b));
      // Turning the card back upright takes the complementary clockwise turn.
      expect(main.rotation).toBe((360 - deg) % 360);
      const [cx, cy] = centre(main.box);
      expect(Math.abs(cx - expected[deg][0])).toBeLessThan(15);
      expect(Math.abs(cy - expected[deg][1])).toBeLessThan(15);
    }
  });
});

describe('embed and similarity', () => {
  it('gives unit-length embeddings that are closer for the same person than for two people', async () => {
    const embedMain = async (bytes: Buffer): Promise<Float32Array> => {
      const image = await decode(bytes);
      const [face] = await engine.detect(image);
      return engine.embed(image, face!);
    };
    const a1 = await embedMain(await selfieOf(PEOPLE.a, 600));
    const a2 = await embedMain(await selfieOf(PEOPLE.a, 220, 60));
    const b = await embedMain(await selfieOf(PEOPLE.b, 600));
    expect(Math.hypot(...a1)).toBeCloseTo(1, 5);
    const same = engine.similarity(a1, a2);
    const different = engine.similarity(a1, b);
    expect(same).toBeGreaterThan(engine.defaultThreshold());
    expect(different).toBeLessThan(engine.defaultThreshold());
  });
});

describe('match', () => {
  it('matches a selfie with its ID card, picking the main portrait over the ghost', async () => {
    const result = await engine.match(
      await decode(await selfieOf(PEOPLE.a)),
      await decode(await idCardOf(PEOPLE.a)),
    );
    expect(result.status).toBe('SUCCESS');
    expect(result.score).toBeGreaterThanOrEqual(result.extra?.threshold as number);
    expect(result.extra?.estimated_fmr).toBeLessThan(1e-3);
    const card = (result.extra?.faces as { id_card: FaceBox }).id_card;
    // The main portrait sits in the left third of the card; the ghost is on the right.
    expect(centre(card)[0]).toBeLessThan(1012 / 3);
  });

  it('matches rotated and downscaled cards', async () => {
    const selfie = await decode(await selfieOf(PEOPLE.d));
    for (const card of [
      await rotated(await idCardOf(PEOPLE.d), 270),
      await idCardOf(PEOPLE.d, 520, { quality: 70 }),
    ]) {
      const result = await engine.match(selfie, await decode(card));
      expect(result.status).toBe('SUCCESS');
    }
  });

  it('rejects another person with no_match and an estimated FMR above the default', async () => {
    const result = await engine.match(
      await decode(await selfieOf(PEOPLE.a)),
      await decode(await idCardOf(PEOPLE.c)),
    );
    expect(result).toMatchObject({ status: 'REJECTED', reason: 'no_match' });
    expect(result.extra?.estimated_fmr).toBeGreaterThan(1e-3);
  });

  it('rejects a card without a portrait with no_face_detected', async () => {
    const blank = await sharp({ create: { width: 800, height: 504, channels: 3, background: '#dfe9f3' } })
      .jpeg()
      .toBuffer();
    const result = await engine.match(await decode(await selfieOf(PEOPLE.a)), await decode(blank));
    expect(result).toMatchObject({ status: 'REJECTED', reason: 'no_face_detected', score: 0 });
  });

  it('rejects a selfie with several people as poor_quality', async () => {
    const result = await engine.match(
      await decode(fs.readFileSync(samplePhoto(1))),
      await decode(await idCardOf(PEOPLE.a)),
    );
    expect(result).toMatchObject({ status: 'REJECTED', reason: 'poor_quality' });
    expect((result.extra?.quality as { selfie: string[] }).selfie).toContain('multiple_faces');
  });

  it('refuses a request threshold outside the bounds with FIELD_INVALID', async () => {
    const img = await decode(await selfieOf(PEOPLE.a, 200));
    await expect(engine.match(img, img, { threshold: 1.5 })).rejects.toSatisfy(
      (e: unknown) => isCoreError(e) && e.code === 'FIELD_INVALID' && e.details.field === 'threshold',
    );
  });
});

describe('quality', () => {
  it('passes a clear selfie and names the failures of degraded ones', async () => {
    const good = await engine.quality(await decode(await selfieOf(PEOPLE.d)));
    expect(good.reasons).toEqual([]);
    expect(good.passed).toBe(true);
    const selfie = await selfieOf(PEOPLE.d);
    const blurred = await engine.quality(await decode(await sharp(selfie).blur(6).jpeg().toBuffer()));
    expect(blurred.reasons).toContain('too_blurred');
    const dark = await engine.quality(await decode(await sharp(selfie).linear(0.2, 0).jpeg().toBuffer()));
    expect(dark.reasons).toContain('too_dark');
    const small = await engine.quality(await decode(await selfieOf(PEOPLE.d, 90)));
    expect(small.reasons).toContain('face_too_small');
    const none = await engine.quality(
      await decode(
        await sharp({ create: { width: 300, height: 300, channels: 3, background: '#777' } })
          .jpeg()
          .toBuffer(),
      ),
    );
    expect(none).toMatchObject({ passed: false, reasons: ['no_face'], face: null });
  });
});

describe('liveness', () => {
  it('scores a face image in [0, 1] against the calibrated threshold', async () => {
    const result = await engine.liveness(await decode(await selfieOf(PEOPLE.b)));
    expect(result.score).toBeGreaterThanOrEqual(0);
    expect(result.score).toBeLessThanOrEqual(1);
    expect(result.status).toBe(result.score >= (result.extra?.threshold as number) ? 'SUCCESS' : 'REJECTED');
    expect(result.extra?.face_detected).toBe(true);
  });
});
