import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { fixture, ROOT } from './support/paths.js';
import { startTestServer, type TestServer } from './support/server.js';

/**
 * The public API over a real socket, on the server under test (`IDV_E2E_SERVER`): in CI also the built dist/server.mjs
 * started from another directory. Each engine's work runs on its worker lane, so these requests prove the workers
 * start from wherever the server runs (fingerprint, face, document and OCR text lanes).
 */
let server: TestServer;

test.beforeAll(async () => {
  server = await startTestServer();
});

test.afterAll(async () => {
  await server.stop();
});

test.describe.configure({ mode: 'serial' });

const MOBILE = '447911123456';
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

/** A multipart form of text fields and fixture files. */
function form(fields: Record<string, string>, files: Record<string, string>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const [name, file] of Object.entries(files)) {
    const type = file.endsWith('.png') ? 'image/png' : 'image/jpeg';
    body.append(name, new Blob([fs.readFileSync(fixture(file))], { type }), file);
  }
  return body;
}

async function post(route: string, body: FormData | object): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${server.url}${route}`, {
    method: 'POST',
    ...(body instanceof FormData
      ? { body }
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: response.status, json: await response.json() };
}

test('/openapi.json documents the public API with the product version', async () => {
  const response = await fetch(`${server.url}/openapi.json`);
  expect(response.status).toBe(200);
  const doc = (await response.json()) as { info: { version: string }; paths: Record<string, unknown> };
  expect(doc.info.version).toBe(VERSION);
  for (const route of ['/v2/verify', '/v2/enroll-fp', '/v2/verify-fp', '/v2/match-faces', '/v1/verify'])
    expect(doc.paths).toHaveProperty(route);
});

test('enroll a generated print, then verify it: the same finger matches, another is rejected', async () => {
  const enrolled = await post('/v2/enroll-fp', form({ mobile_number: MOBILE }, { file: 'finger-a-1.png' }));
  expect(enrolled).toMatchObject({ status: 200, json: { status: 'SUCCESS' } });
  const same = await post(
    '/v2/verify-fp',
    form({ mobile_number: MOBILE }, { fingerprint: 'finger-a-2.png' }),
  );
  expect(same).toMatchObject({ status: 200, json: { status: 'SUCCESS' } });
  const other = await post(
    '/v2/verify-fp',
    form({ mobile_number: MOBILE }, { fingerprint: 'finger-b-1.png' }),
  );
  expect(other).toMatchObject({ status: 200, json: { status: 'REJECTED', reason: 'no_match' } });
});

test('/v2/verify end to end: fingerprint, face match and the ID card all pass for the card holder', async () => {
  const result = await post(
    '/v2/verify',
    form(
      { mobile_number: MOBILE },
      { fingerprint: 'finger-a-2.png', selfie: 'selfie.jpg', id_card: 'id-card.jpg' },
    ),
  );
  expect(result).toMatchObject({
    status: 200,
    json: {
      status: 'SUCCESS',
      details: {
        fingerprint: { status: 'SUCCESS', mobile_number: `+${MOBILE}` },
        face_match: { status: 'SUCCESS' },
        id_card: { status: 'SUCCESS', feature_detected: expect.any(String) },
      },
    },
  });
});

test("OCR extract reads the card's MRZ with every check digit valid", async () => {
  const image = fs.readFileSync(fixture('id-card.jpg')).toString('base64');
  const result = await post('/docs/ocr/api/extract', { image });
  expect(result).toMatchObject({ status: 200, json: { mrz: { valid: true } } });
});

test('every sub-service is healthy, its worker lanes started and ready', async () => {
  const lanes: Record<string, string[]> = {
    fingerprint: ['fingerprint'],
    liveness: ['face'],
    'face-matching': ['face'],
    ocr: ['document', 'ocr-text'],
    orchestrator: [],
  };
  for (const [service, expected] of Object.entries(lanes)) {
    const response = await fetch(`${server.url}/docs/${service}/api/health`);
    const health = (await response.json()) as {
      status: string;
      engine?: { workers?: Record<string, { state: string }> };
    };
    expect(response.status, service).toBe(200);
    expect(health.status, service).toBe('ok');
    for (const lane of expected)
      expect(health.engine?.workers?.[lane]?.state, `${service} ${lane}`).toBe('ready');
    const root = await fetch(`${server.url}/docs/${service}/api/`);
    expect(await root.json(), service).toMatchObject({
      name: service,
      version: VERSION,
      status: 'available',
    });
  }
});

test('a wrong method answers 405 with Allow; a wrong content type answers 415 naming the expected one', async () => {
  const get = await fetch(`${server.url}/v2/verify`);
  expect(get.status).toBe(405);
  expect(get.headers.get('allow')).toContain('POST');
  expect(await get.json()).toMatchObject({ status: 'ERROR' });
  const json = await post('/v2/enroll-fp', { mobile_number: MOBILE });
  expect(json).toMatchObject({
    status: 415,
    json: { status: 'ERROR', message: expect.stringMatching(/multipart/) },
  });
  const text = await fetch(`${server.url}/docs/fingerprint/api/enroll`, {
    method: 'POST',
    body: 'mobile_number=447911123456',
    headers: { 'content-type': 'text/plain' },
  });
  expect(text.status).toBe(415);
  expect(await text.json()).toMatchObject({ status: 'ERROR', message: expect.stringMatching(/json/i) });
});
