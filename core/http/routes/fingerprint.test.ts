import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGrayBmp, encodeGrayPng, syntheticFingerprint } from '../../fingerprint/synthetic/index.js';
import { buildMultipart } from '../../testing/multipart.js';
import { samplePhoto } from '../../testing/images.js';
import { attachFingerprintEngine, startTestServer, type TestServer } from '../../testing/services.js';

const ALICE = '447911123456';
const png = (seed: number, impression: number): Buffer =>
  encodeGrayPng(syntheticFingerprint(seed, impression), 500);

describe('fingerprint routes (real extractor and matcher, generated prints)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    // Pin the operating point (1 false match in 100) so these tests exercise decisions, not the calibration table.
    await server.services.settings.set('fingerprint.thresholdOneInN', 100);
    await server.services.settings.set('fingerprint.dedupOneInN', 100);
    attachFingerprintEngine(server);
  });
  afterAll(async () => server.close());

  const multipart = (url: string, mobile: string | undefined, field: string, image: Buffer) => {
    const { body, contentType } = buildMultipart([
      ...(mobile === undefined ? [] : [{ name: 'mobile_number', value: mobile }]),
      { name: field, filename: 'print.png', contentType: 'image/png', data: image },
    ]);
    return server.app.inject({
      method: 'POST',
      url,
      payload: body,
      headers: { 'content-type': contentType },
    });
  };
  const json = (method: 'POST' | 'GET' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    server.app.inject({ method, url, ...(payload ? { payload } : {}) });
  const lastAudit = async () => (await server.services.audit.query({ limit: 1 }))[0];

  it('POST /v2/enroll-fp enrolls (SPEC 2.2 plus quality and model version)', async () => {
    const res = await multipart('/v2/enroll-fp', ALICE, 'file', png(401, 0));
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      status: 'SUCCESS',
      replaced: false,
      model_version: server.services.fingerprint!.modelVersion,
    });
    expect(typeof body.message).toBe('string');
    expect(body.quality_score).toBeGreaterThan(0);
    expect(await lastAudit()).toMatchObject({ event: 'fingerprint.enrolled', mobileMasked: '+4479*****456' });
  });

  it('POST /v2/verify-fp verifies a genuine impression (field fingerprint or file)', async () => {
    for (const field of ['fingerprint', 'file']) {
      const res = await multipart('/v2/verify-fp', ALICE, field, png(401, 1));
      expect(res.statusCode).toBe(200);
      const body = res.json<Record<string, unknown>>();
      expect(body).toMatchObject({ status: 'SUCCESS', mobile_number: '+447911123456' });
      expect(body.score).toBeGreaterThanOrEqual(body.threshold as number);
      expect(body.estimated_fmr).toBeLessThanOrEqual(1);
    }
  });

  it('rejects another finger with no_match and an unknown number with not_enrolled (HTTP 200, SPEC 2.4)', async () => {
    const other = await multipart('/v2/verify-fp', ALICE, 'fingerprint', png(402, 0));
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ step: 'fingerprint', status: 'REJECTED', reason: 'no_match' });
    const unknown = await multipart('/v2/verify-fp', '447911123499', 'fingerprint', png(401, 1));
    expect(unknown.json()).toMatchObject({
      step: 'fingerprint',
      status: 'REJECTED',
      reason: 'not_enrolled',
      score: 0,
    });
    expect(await lastAudit()).toMatchObject({
      resultStatus: 'REJECTED',
      failedStep: 'fingerprint',
      reason: 'not_enrolled',
    });
  });

  it('answers 422 NOT_A_FINGERPRINT with the likeness for a blank image or a face photo, 400 for bad input', async () => {
    const blank = encodeGrayBmp({ width: 300, height: 400, data: new Uint8Array(300 * 400).fill(210) });
    for (const image of [blank, samplePhoto(2)]) {
      const refused = await multipart('/v2/enroll-fp', '447911123411', 'file', image);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        status: 'ERROR',
        code: 'NOT_A_FINGERPRINT',
        reason: 'not_a_fingerprint',
      });
      expect(refused.json<{ fingerprint_likeness: number }>().fingerprint_likeness).toBeLessThan(50);
    }
    expect((await multipart('/v2/enroll-fp', undefined, 'file', png(401, 0))).statusCode).toBe(400);
    expect((await multipart('/v2/enroll-fp', '12', 'file', png(401, 0))).json()).toMatchObject({
      code: 'MOBILE_NUMBER_INVALID',
    });
    expect((await multipart('/v2/enroll-fp', ALICE, 'file', Buffer.from('not an image'))).statusCode).toBe(
      415,
    );
  });

  it('serves the JSON sub-service: enroll, verify, search, metadata, delete', async () => {
    const image = (seed: number, impression: number) => png(seed, impression).toString('base64');
    const enrolled = await json('POST', '/docs/fingerprint/api/enroll', {
      mobile_number: '+447911123422',
      image: image(403, 0),
    });
    expect(enrolled.json()).toMatchObject({ status: 'SUCCESS' });
    expect(enrolled.json<Record<string, unknown>>().duplicate_of).toBeUndefined();
    const verified = await json('POST', '/docs/fingerprint/api/verify', {
      mobile_number: '447911123422',
      image: image(403, 1),
    });
    expect(verified.json()).toMatchObject({ status: 'SUCCESS', mobile_number: '+447911123422' });

    const search = await json('POST', '/docs/fingerprint/api/search', { image: image(403, 2), k: 2 });
    expect(search.statusCode).toBe(200);
    const found = search.json<{
      candidates: { mobile_number: string; match: boolean }[];
      gallery_size: number;
    }>();
    expect(found.gallery_size).toBeGreaterThanOrEqual(1);
    expect(found.candidates[0]).toMatchObject({ mobile_number: '+447911123422', match: true });
    expect(
      (await json('POST', '/docs/fingerprint/api/search', { image: image(403, 2), k: 0 })).statusCode,
    ).toBe(400);

    const meta = await json('GET', '/docs/fingerprint/api/enrollments/447911123422');
    expect(meta.json()).toMatchObject({
      status: 'SUCCESS',
      mobile_number: '+447911123422',
      reenrollment_required: false,
    });
    expect(meta.body).not.toMatch(/template|IDVE/);

    const deleted = await json('DELETE', '/docs/fingerprint/api/enrollments/447911123422');
    expect(deleted.json()).toMatchObject({ status: 'SUCCESS', deleted: true });
    expect(await lastAudit()).toMatchObject({ event: 'fingerprint.deleted', mobileMasked: '+4479*****422' });
    expect((await json('GET', '/docs/fingerprint/api/enrollments/447911123422')).statusCode).toBe(404);
    expect((await json('DELETE', '/docs/fingerprint/api/enrollments/447911123422')).statusCode).toBe(404);
  });

  it('flags a finger already enrolled under another number, and answers 409 when set to reject', async () => {
    const flagged = await multipart('/v2/enroll-fp', '447911123433', 'file', png(401, 2));
    expect(flagged.json()).toMatchObject({ status: 'SUCCESS', duplicate_of: '+4479*****456' });
    expect(await lastAudit()).toMatchObject({ event: 'fingerprint.duplicate_flagged' });
    await server.services.settings.set('fingerprint.dedup', 'reject');
    try {
      const refused = await multipart('/v2/enroll-fp', '447911123444', 'file', png(401, 3));
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'CONFLICT', duplicate_of: '+4479*****456' });
    } finally {
      await server.services.settings.set('fingerprint.dedup', 'flag');
    }
  });

  it('documents every fingerprint route in /openapi.json', async () => {
    const paths = Object.keys(
      (await json('GET', '/openapi.json')).json<{ paths: Record<string, unknown> }>().paths,
    );
    for (const p of [
      '/v2/enroll-fp',
      '/v2/verify-fp',
      '/docs/fingerprint/api/enroll',
      '/docs/fingerprint/api/verify',
      '/docs/fingerprint/api/search',
      '/docs/fingerprint/api/enrollments/{mobile}',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('reports its health and service root without a key', async () => {
    const health = await json('GET', '/docs/fingerprint/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({
      status: 'ok',
      engine: { model_version: server.services.fingerprint!.modelVersion },
    });
    expect((await json('GET', '/docs/fingerprint/api/')).json()).toMatchObject({
      name: 'fingerprint',
      status: 'available',
    });
  });

  it('never logs image bytes', () => {
    const all = server.logs.join('');
    expect(all).not.toContain(png(401, 1).toString('base64').slice(100, 160));
  });
});
