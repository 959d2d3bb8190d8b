import fs from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMultipart } from '../testing/multipart.js';
import { samplePhoto, texturedJpeg } from '../testing/images.js';
import { startTestServer, type TestServer } from '../testing/services.js';

const SUB_SERVICES = ['fingerprint', 'liveness', 'face-matching', 'ocr', 'orchestrator'];

describe('HTTP foundation (engines not loaded)', () => {
  let server: TestServer;
  let jpeg: Buffer;
  beforeAll(async () => {
    server = await startTestServer();
    jpeg = await texturedJpeg(320, 240);
  });
  afterAll(async () => server.close());

  const post = (
    url: string,
    parts: Parameters<typeof buildMultipart>[0],
    headers: Record<string, string> = {},
  ) => {
    const { body, contentType } = buildMultipart(parts);
    return server.app.inject({
      method: 'POST',
      url,
      payload: body,
      headers: { 'content-type': contentType, ...headers },
    });
  };

  it('serves every sub-service root and health without a key, even in enforce mode', async () => {
    await server.services.keys.setMode('enforce');
    for (const name of SUB_SERVICES) {
      const root = await server.app.inject({ url: `/docs/${name}/api/` });
      expect(root.statusCode).toBe(200);
      expect(root.json()).toMatchObject({ name, health: `/docs/${name}/api/health` });
      const health = await server.app.inject({ url: `/docs/${name}/api/health` });
      expect([200, 503]).toContain(health.statusCode);
      expect(health.json().store).toMatchObject({
        reachable: true,
        sqlite_vec: expect.stringMatching(/^v\d/),
      });
    }
    await server.services.keys.setMode('observe');
  });

  it('answers 501 NOT_IMPLEMENTED on every engine route when the engines are not built', async () => {
    const routes = [
      '/v2/enroll-fp',
      '/v2/verify-fp',
      '/v2/match-faces',
      '/v1/verify',
      '/docs/fingerprint/api/search',
      '/docs/liveness/api/check',
      '/docs/face-matching/api/match',
      '/docs/ocr/api/extract',
      '/docs/orchestrator/api/verify',
    ];
    const emptyForm = buildMultipart([]);
    for (const url of routes) {
      const res = url.startsWith('/docs/')
        ? await server.app.inject({ method: 'POST', url, payload: {} })
        : await server.app.inject({
            method: 'POST',
            url,
            payload: emptyForm.body,
            headers: { 'content-type': emptyForm.contentType },
          });
      expect(res.statusCode, url).toBe(501);
      expect(res.json()).toMatchObject({ status: 'ERROR', code: 'NOT_IMPLEMENTED' });
    }
    const verify = await post('/v2/verify', [
      { name: 'mobile_number', value: '447911123456' },
      { name: 'fingerprint', filename: 'f.jpg', data: jpeg },
      { name: 'selfie', filename: 's.jpg', data: jpeg },
      { name: 'id_card', filename: 'c.jpg', data: jpeg },
    ]);
    expect(verify.statusCode).toBe(501);
    expect(verify.json().message).toMatch(/fingerprint, face matching, ID-card check/);
  });

  it('reports the first missing field with 400 and its name', async () => {
    const res = await post('/v2/verify', [
      { name: 'mobile_number', value: '447911123456' },
      { name: 'selfie', filename: 's.jpg', data: jpeg },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 'ERROR', code: 'FIELD_MISSING', field: 'fingerprint' });
    const noMobile = await post('/v2/verify', [{ name: 'fingerprint', filename: 'f.jpg', data: jpeg }]);
    expect(noMobile.json()).toMatchObject({ code: 'FIELD_MISSING', field: 'mobile_number' });
  });

  const full = (overrides: Record<string, Buffer>, mobile = '447911123456') => [
    { name: 'mobile_number', value: mobile },
    { name: 'fingerprint', filename: 'f.jpg', data: overrides.fingerprint ?? jpeg },
    { name: 'selfie', filename: 's.jpg', data: overrides.selfie ?? jpeg },
    { name: 'id_card', filename: 'c.jpg', data: overrides.id_card ?? jpeg },
  ];

  it('rejects non-image bytes named .jpg with 415', async () => {
    const res = await post(
      '/v2/verify',
      full({ selfie: Buffer.from('this is not a picture at all, just text') }),
    );
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'IMAGE_UNSUPPORTED', field: 'selfie' });
  });

  it('rejects a truncated JPEG with 415 IMAGE_TRUNCATED', async () => {
    const big = await texturedJpeg(800, 600);
    const res = await post('/v2/verify', full({ id_card: big.subarray(0, Math.floor(big.length / 2)) }));
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'IMAGE_TRUNCATED', field: 'id_card' });
  });

  it('rejects an oversized file with 413 and a decompression bomb by its pixel count', async () => {
    const huge = Buffer.concat([jpeg, Buffer.alloc(11 * 1024 * 1024, 7)]);
    const res = await post('/v2/verify', full({ fingerprint: huge }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'FILE_TOO_LARGE', field: 'fingerprint' });
    const bomb = await sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const bombRes = await post('/v2/verify', full({ selfie: bomb }));
    expect(bombRes.statusCode).toBe(413);
    expect(bombRes.json()).toMatchObject({ code: 'IMAGE_TOO_MANY_PIXELS', field: 'selfie' });
  });

  it('rejects an invalid mobile number with 400', async () => {
    for (const mobile of ['12', '44791112345678901234', '+999123456789', "447911'; DROP TABLE api_keys;--"]) {
      const res = await post('/v2/verify', full({}, mobile));
      expect(res.statusCode, mobile).toBe(400);
      expect(res.json()).toMatchObject({ code: 'MOBILE_NUMBER_INVALID', field: 'mobile_number' });
    }
  });

  it('answers 415 for a JSON body where multipart is expected and 400 for malformed JSON', async () => {
    const json = await server.app.inject({
      method: 'POST',
      url: '/v2/verify',
      payload: { mobile_number: '1' },
    });
    expect(json.statusCode).toBe(415);
    const broken = await server.app.inject({
      method: 'POST',
      url: '/docs/liveness/api/check',
      payload: '{"a":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ status: 'ERROR', code: 'BODY_INVALID' });
  });

  it('answers 404 with the error body for unknown routes, echoing no hostile markup', async () => {
    const res = await server.app.inject({ url: '/v9/<script>alert(1)</script>' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 'ERROR', code: 'NOT_FOUND' });
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('enforce mode: 401 without a key, with a wrong key and with a revoked key; a valid key passes', async () => {
    const issued = await server.services.keys.create('test backend');
    // A switch applies to the very next request.
    await server.services.keys.setMode('enforce');
    try {
      const missing = await post('/v2/verify', full({}));
      expect(missing.statusCode).toBe(401);
      expect(missing.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      const wrong = await post('/v2/verify', full({}), { 'x-api-key': `${issued.key.slice(0, -4)}AAAA` });
      expect(wrong.statusCode).toBe(401);
      const valid = await post('/v2/verify', full({}), { 'x-api-key': issued.key });
      expect(valid.statusCode).toBe(501);
      expect((await server.services.keys.list()).find((k) => k.id === issued.id)?.lastUsedAt).not.toBeNull();
      await server.services.keys.revoke(issued.id);
      const revoked = await post('/v2/verify', full({}), { 'x-api-key': issued.key });
      expect(revoked.statusCode).toBe(401);
      const rows = await server.services.audit.query({ limit: 4 });
      expect(rows.map((r) => r.authOutcome)).toEqual(['revoked', 'valid', 'invalid', 'missing']);
    } finally {
      await server.services.keys.setMode('observe');
    }
  });

  it('observe mode processes a keyless request and audits it as missing', async () => {
    const res = await post('/v2/verify', full({}));
    expect(res.statusCode).toBe(501);
    const [row] = await server.services.audit.query({ limit: 1 });
    expect(row).toMatchObject({
      authOutcome: 'missing',
      keyId: null,
      route: '/v2/verify',
      httpStatus: 501,
      mobileMasked: '+4479*****456',
    });
  });

  it('limits each key to its rate and answers 429 with Retry-After', async () => {
    const issued = await server.services.keys.create('rate limited backend');
    await server.services.settings.set('limits.rateLimitPerMinute', 3);
    try {
      const statuses: number[] = [];
      let retryAfter: string | undefined;
      for (let i = 0; i < 4; i++) {
        const res = await server.app.inject({
          method: 'POST',
          url: '/v1/verify',
          headers: { 'x-api-key': issued.key },
        });
        statuses.push(res.statusCode);
        retryAfter = res.headers['retry-after'];
      }
      expect(statuses).toEqual([501, 501, 501, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    } finally {
      await server.services.settings.set('limits.rateLimitPerMinute', 600);
    }
  });

  it('publishes an OpenAPI 3 document with every SPEC route and field name', async () => {
    const res = await server.app.inject({ url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const p of ['/v2/verify', '/v2/enroll-fp', '/v2/verify-fp', '/v2/match-faces', '/v1/verify'])
      expect(doc.paths).toHaveProperty(p);
    for (const name of SUB_SERVICES) expect(doc.paths).toHaveProperty(`/docs/${name}/api/health`);
    const verifyBody = JSON.stringify(doc.paths['/v2/verify'].post.requestBody);
    for (const field of ['mobile_number', 'fingerprint', 'selfie', 'id_card'])
      expect(verifyBody).toContain(field);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ in: 'header', name: 'x-api-key' });
  });

  it('never writes image bytes or base64 to logs or the audit table', async () => {
    const photo = samplePhoto(1);
    const body = { image: photo.toString('base64'), selfie: photo.toString('base64') };
    await server.app.inject({ method: 'POST', url: '/docs/liveness/api/check', payload: body });
    await post('/v2/verify', full({ selfie: photo, id_card: samplePhoto(2) }));
    await post('/v2/verify', full({ selfie: photo }, 'not-a-number'));
    const logs = server.logs.join('\n');
    const dump = JSON.stringify(await server.services.audit.query({ limit: 1000 }));
    const probes = [
      photo.subarray(200, 260).toString('base64').slice(4, 60),
      photo.subarray(200, 260).toString('latin1'),
    ];
    for (const text of [logs, dump]) {
      for (const probe of probes) expect(text.includes(probe)).toBe(false);
      expect(text).not.toMatch(/[A-Za-z0-9+/]{200,}/);
    }
    expect(logs).toContain('audited');
  });

  it('keeps the data directory owner-only', () => {
    expect(fs.statSync(server.dataDir).mode & 0o777).toBe(0o700);
  });
});
