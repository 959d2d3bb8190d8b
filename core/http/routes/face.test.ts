import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PEOPLE, idCardOf, rotated, selfieOf } from '../../face/testing/fixtures.js';
import { buildMultipart } from '../../testing/multipart.js';
import { attachFaceEngine, startTestServer, type TestServer } from '../../testing/services.js';

describe('face routes (real models, real images)', () => {
  let server: TestServer;
  let selfieA: Buffer;
  let cardA: Buffer;
  let cardC: Buffer;
  beforeAll(async () => {
    server = await startTestServer();
    await attachFaceEngine(server);
    selfieA = await selfieOf(PEOPLE.a);
    cardA = await rotated(await idCardOf(PEOPLE.a), 90);
    cardC = await idCardOf(PEOPLE.c);
  });
  afterAll(async () => server.close());

  const multipart = (
    selfie: Buffer | undefined,
    card: Buffer,
    extra: { name: string; value: string }[] = [],
  ) => {
    const parts = [
      ...(selfie ? [{ name: 'selfie', filename: 's.jpg', contentType: 'image/jpeg', data: selfie }] : []),
      { name: 'id_card', filename: 'c.jpg', contentType: 'image/jpeg', data: card },
      ...extra,
    ];
    const { body, contentType } = buildMultipart(parts);
    return server.app.inject({
      method: 'POST',
      url: '/v2/match-faces',
      payload: body,
      headers: { 'content-type': contentType },
    });
  };
  const json = (url: string, payload: Record<string, unknown>) =>
    server.app.inject({ method: 'POST', url, payload });

  it('POST /v2/match-faces answers SUCCESS with score, threshold, estimated FMR and the boxes used', async () => {
    const res = await multipart(selfieA, cardA);
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ status: 'SUCCESS' });
    expect(body.score).toBeGreaterThanOrEqual(body.threshold as number);
    expect(typeof body.estimated_fmr).toBe('number');
    const faces = body.faces as Record<string, { width: number } | null>;
    expect(faces.selfie?.width).toBeGreaterThan(0);
    expect(faces.id_card?.width).toBeGreaterThan(0);
  });

  it('answers the SPEC 2.4 rejection body for another person', async () => {
    const res = await multipart(selfieA, cardC);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ step: 'face_match', status: 'REJECTED', reason: 'no_match' });
  });

  it('rejects a faceless card with no_face_detected and a bad threshold with 400', async () => {
    const blank = await sharp({ create: { width: 600, height: 380, channels: 3, background: '#ccd' } })
      .jpeg()
      .toBuffer();
    expect((await multipart(selfieA, blank)).json()).toMatchObject({
      status: 'REJECTED',
      reason: 'no_face_detected',
      score: 0,
    });
    const bad = await multipart(selfieA, cardA, [{ name: 'threshold', value: '7' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 'ERROR', code: 'FIELD_INVALID', field: 'threshold' });
  });

  it('answers 400 for a missing selfie and 415 for a non-image, never 500', async () => {
    const missing = await multipart(undefined, cardA);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ field: 'selfie' });
    const notImage = await json('/docs/face-matching/api/match', {
      selfie: Buffer.from('not an image at all').toString('base64'),
      id_card: cardA.toString('base64'),
    });
    expect(notImage.statusCode).toBe(415);
  });

  it('POST /docs/face-matching/api/match takes base64 JSON and a request threshold', async () => {
    const res = await json('/docs/face-matching/api/match', {
      selfie: selfieA.toString('base64'),
      id_card: cardA.toString('base64'),
      threshold: 0.9,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body.threshold).toBe(0.9);
    expect(body.status).toBe((body.score as number) >= 0.9 ? 'SUCCESS' : 'REJECTED');
  });

  it('follows the operator threshold set as "1 in N"', async () => {
    const before = (
      await json('/docs/face-matching/api/match', {
        selfie: selfieA.toString('base64'),
        id_card: cardC.toString('base64'),
      })
    ).json<{ threshold: number }>();
    await server.services.settings.set('face.thresholdOneInN', 1_000_000);
    const after = (
      await json('/docs/face-matching/api/match', {
        selfie: selfieA.toString('base64'),
        id_card: cardC.toString('base64'),
      })
    ).json<{ threshold: number }>();
    await server.services.settings.set('face.thresholdOneInN', 1000);
    expect(after.threshold).toBeGreaterThan(before.threshold);
  });

  it('POST /docs/liveness/api/check and /docs/face-matching/api/quality answer with scores and reasons', async () => {
    const live = await json('/docs/liveness/api/check', { image: selfieA.toString('base64') });
    expect(live.statusCode).toBe(200);
    const body = live.json<Record<string, unknown>>();
    expect(['SUCCESS', 'REJECTED']).toContain(body.status);
    expect(typeof body.threshold).toBe('number');
    const dark = await sharp(selfieA).linear(0.15, 0).jpeg().toBuffer();
    const quality = await json('/docs/face-matching/api/quality', { image: dark.toString('base64') });
    expect(quality.statusCode).toBe(200);
    expect(quality.json()).toMatchObject({ status: 'REJECTED', passed: false });
    expect(quality.json<{ reasons: string[] }>().reasons).toContain('too_dark');
  });

  it('lists every face route in the OpenAPI document and logs no image bytes', async () => {
    const doc = (await server.app.inject({ url: '/openapi.json' })).json<{
      paths: Record<string, unknown>;
    }>();
    for (const p of [
      '/v2/match-faces',
      '/docs/face-matching/api/match',
      '/docs/face-matching/api/quality',
      '/docs/liveness/api/check',
    ]) {
      expect(doc.paths[p]).toBeDefined();
    }
    const logged = server.logs.join('\n');
    expect(logged).not.toContain(selfieA.toString('base64').slice(0, 200));
  });
});
