import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderIdCard } from '../document/render/render-card.js';
import { encodeGrayPng, syntheticFingerprint } from '../fingerprint/synthetic/index.js';
import { decodeImage } from '../imaging/decode.js';
import { samplePhoto } from '../testing/images.js';
import { buildMultipart } from '../testing/multipart.js';
import { startTestServer, type TestServer } from '../testing/services.js';
import { runVerification } from './verify-pipeline.js';

/** /v2/verify end to end with every real engine: generated prints, npm-shipped photos, rendered cards. */
describe('/v2/verify with the real engines', () => {
  let server: TestServer;
  let selfie: Buffer;
  let otherCard: Buffer;
  let card: Buffer;
  const print = (seed: number, impression: number): Buffer =>
    encodeGrayPng(syntheticFingerprint(seed, impression), 500);

  beforeAll(async () => {
    server = await startTestServer({ engines: true });
    // The card's holder is the person at (1340, 40) in sample1.jpg; the selfie is a wider, rescaled crop of them.
    selfie = await sharp(samplePhoto(1))
      .extract({ left: 1290, top: 0, width: 520, height: 620 })
      .resize(480)
      .jpeg()
      .toBuffer();
    // Someone else's card: its portrait is the person of sample6.jpg.
    otherCard = await renderIdCard({ person: 2 });
    card = await renderIdCard({ person: 0 });
    const enrolled = await post('/v2/enroll-fp', [
      { name: 'mobile_number', value: '+44 7911 123456' },
      { name: 'file', filename: 'print.png', data: print(101, 0) },
    ]);
    expect(enrolled.json()).toMatchObject({ status: 'SUCCESS' });
  }, 240_000);
  afterAll(async () => server.close());

  function post(url: string, parts: Parameters<typeof buildMultipart>[0]) {
    const { body, contentType } = buildMultipart(parts);
    return server.app.inject({
      method: 'POST',
      url,
      payload: body,
      headers: { 'content-type': contentType },
    });
  }
  const verify = (mobile: string, fp: Buffer, face: Buffer, id: Buffer) =>
    post('/v2/verify', [
      { name: 'mobile_number', value: mobile },
      { name: 'fingerprint', filename: 'fp.png', data: fp },
      { name: 'selfie', filename: 'selfie.jpg', data: face },
      { name: 'id_card', filename: 'card.jpg', data: id },
    ]);

  it('answers SUCCESS with the three steps of SPEC 2.3 for the genuine person', async () => {
    const res = await verify('447911123456', print(101, 1), selfie, card);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'SUCCESS',
      details: {
        fingerprint: { status: 'SUCCESS', mobile_number: '+447911123456', score: expect.any(Number) },
        face_match: { status: 'SUCCESS', score: expect.any(Number) },
        id_card: {
          status: 'SUCCESS',
          verification_score: expect.any(Number),
          feature_detected: expect.any(String),
        },
      },
    });
    const [row] = await server.services.audit.query({ limit: 1 });
    expect(row).toMatchObject({
      route: '/v2/verify',
      resultStatus: 'SUCCESS',
      failedStep: null,
      mobileMasked: '+4479*****456',
    });
    expect(Object.keys(JSON.parse(row!.scores ?? '{}') as object)).toEqual([
      'fingerprint',
      'face_match',
      'id_card',
    ]);
  });

  it('rejects at the fingerprint step for another finger and for an unknown number', async () => {
    const wrong = (await verify('447911123456', print(202, 1), selfie, card)).json();
    expect(wrong).toMatchObject({
      step: 'fingerprint',
      status: 'REJECTED',
      reason: 'no_match',
      score: expect.any(Number),
    });
    const unknown = (await verify('447400123456', print(101, 1), selfie, card)).json();
    expect(unknown).toMatchObject({
      step: 'fingerprint',
      status: 'REJECTED',
      reason: 'not_enrolled',
      score: 0,
    });
  });

  it('rejects at face_match when the card portrait is someone else', async () => {
    const res = (await verify('447911123456', print(101, 2), selfie, otherCard)).json();
    expect(res).toMatchObject({ step: 'face_match', status: 'REJECTED', reason: 'no_match' });
    const [row] = await server.services.audit.query({ limit: 1 });
    expect(row).toMatchObject({ resultStatus: 'REJECTED', failedStep: 'face_match', reason: 'no_match' });
  });

  it('rejects at id_card_check when the card shows no required security feature', async () => {
    const plain = await renderIdCard({ person: 0, mrz: false, ghost: false, mark: 'none' });
    const res = (await verify('447911123456', print(101, 1), selfie, plain)).json();
    expect(res).toMatchObject({ step: 'id_card_check', status: 'REJECTED', reason: 'feature_not_found' });
  });

  it('runs no further step once the caller has gone away', async () => {
    const decode = (bytes: Buffer, field: string) => decodeImage(bytes, { field });
    const gone = new AbortController();
    const seen: string[] = [];
    const run = runVerification(
      server.services,
      {
        mobileE164: '+447911123456',
        fingerprint: await decode(print(101, 1), 'fingerprint'),
        selfie: await decode(selfie, 'selfie'),
        idCard: await decode(card, 'id_card'),
        signal: gone.signal,
      },
      (progress) => {
        seen.push(`${progress.step} ${progress.phase}`);
        if (progress.step === 'face_match' && progress.phase === 'finished') gone.abort(new Error('gone'));
      },
    );
    await expect(run).rejects.toThrow('gone');
    expect(seen).toEqual([
      'fingerprint started',
      'fingerprint finished',
      'face_match started',
      'face_match finished',
    ]);
  });
});
