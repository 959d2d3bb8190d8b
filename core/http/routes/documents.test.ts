import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentEngine } from '../../document/index.js';
import { disposeMrzReader, readMrz } from '../../document/mrz/index.js';
import { markSvg } from '../../document/render/marks.js';
import { renderIdCard } from '../../document/render/render-card.js';
import type { DocumentService } from '../../document/service.js';
import { buildMultipart, type FormPart } from '../../testing/multipart.js';
import { startTestServer, type TestServer } from '../../testing/services.js';

describe('POST /v1/verify (real engine, rendered cards)', () => {
  let server: TestServer;
  let engine: DocumentService;
  let genuine: Buffer;
  let badMrz: Buffer;

  beforeAll(async () => {
    server = await startTestServer();
    engine = await createDocumentEngine({
      profiles: server.services.store.documentProfiles,
      marks: server.services.store.referenceMarks,
      readMrz,
    });
    server.services.document = engine;
    server.services.disposers.push(
      () => engine.dispose(),
      () => disposeMrzReader(),
    );
    genuine = await renderIdCard({ ghost: false });
    badMrz = await renderIdCard({ ghost: false, corruptMrz: 'document_number', mark: 'lookalike' });
  });
  afterAll(async () => server.close());

  const post = (parts: FormPart[]) => {
    const { body, contentType } = buildMultipart(parts);
    return server.app.inject({
      method: 'POST',
      url: '/v1/verify',
      payload: body,
      headers: { 'content-type': contentType },
    });
  };
  const file = (data: Buffer): FormPart => ({
    name: 'id_card',
    filename: 'card.jpg',
    contentType: 'image/jpeg',
    data,
  });

  it('answers SUCCESS with the detected feature, its score and region', async () => {
    const res = await post([file(genuine)]);
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ status: 'SUCCESS', feature_detected: 'mrz', profile: 'default' });
    expect(body.verification_score).toBeGreaterThanOrEqual(0.5);
    expect(body.region).toMatchObject({ width: expect.any(Number) as number });
    expect(typeof body.message).toBe('string');
  });

  it('answers the id_card_check rejection body (HTTP 200) when no required feature is found', async () => {
    const res = await post([file(badMrz)]);
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ step: 'id_card_check', status: 'REJECTED', reason: 'feature_not_found' });
    expect(body.score).toBeLessThan(0.5);
  });

  it('selects a profile by name, and a look-alike mark fails the mark profile', async () => {
    await engine.addReferenceMark(
      'arms',
      await sharp(Buffer.from(markSvg('arms', 1.5)))
        .png()
        .toBuffer(),
    );
    await engine.saveProfile({
      name: 'arms_only',
      features: [{ feature: 'reference_mark', min_score: 0.5 }],
    });
    const pass = await post([file(genuine), { name: 'profile', value: 'arms_only' }]);
    expect(pass.json()).toMatchObject({
      status: 'SUCCESS',
      feature_detected: 'reference_mark',
      profile: 'arms_only',
    });
    const fail = await post([file(badMrz), { name: 'profile', value: 'arms_only' }]);
    expect(fail.json()).toMatchObject({ status: 'REJECTED', reason: 'feature_not_found' });
  });

  it('rejects bad input with 4xx, never 500', async () => {
    const unknown = await post([file(genuine), { name: 'profile', value: 'no_such_profile' }]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ status: 'ERROR', code: 'FIELD_INVALID', field: 'profile' });
    const missing = await post([{ name: 'profile', value: 'default' }]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'FIELD_MISSING', field: 'id_card' });
    const text = await post([file(Buffer.from('definitely not an image'))]);
    expect(text.statusCode).toBe(415);
  });

  it('never logs the image', () => {
    const marker = genuine.subarray(200, 232).toString('base64');
    expect(server.logs.join('\n')).not.toContain(marker);
  });

  it('is documented in /openapi.json', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/openapi.json' });
    const doc = res.json<{ paths: Record<string, { post?: { responses: Record<string, unknown> } }> }>();
    expect(doc.paths['/v1/verify']?.post?.responses).toHaveProperty('200');
  });
});

describe('POST /v1/verify without the engine', () => {
  it('answers 501', async () => {
    const server = await startTestServer();
    try {
      const { body, contentType } = buildMultipart([
        { name: 'id_card', filename: 'c.jpg', data: await renderIdCard() },
      ]);
      const res = await server.app.inject({
        method: 'POST',
        url: '/v1/verify',
        payload: body,
        headers: { 'content-type': contentType },
      });
      expect(res.statusCode).toBe(501);
    } finally {
      await server.close();
    }
  });
});
