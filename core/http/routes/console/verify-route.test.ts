import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderIdCard } from '../../../document/render/render-card.js';
import { encodeGrayPng, syntheticFingerprint } from '../../../fingerprint/synthetic/index.js';
import { samplePhoto } from '../../../testing/images.js';
import { buildMultipart, type FormPart } from '../../../testing/multipart.js';
import { startTestServer, type TestServer } from '../../../testing/services.js';
import type { VerifyStreamEvent } from './api-types.js';

const HOST = '127.0.0.1:8787';
const print = (seed: number, impression: number): Buffer =>
  encodeGrayPng(syntheticFingerprint(seed, impression), 500);

/** The console's verification: /v2/verify's pipeline, streamed as NDJSON, audited once. */
describe('POST /api/console/run/verify', () => {
  let server: TestServer;
  let operator = '';
  let selfie: Buffer;
  let card: Buffer;

  const form = (mobile: string, fingerprint: Buffer): FormPart[] => [
    { name: 'mobile_number', value: mobile },
    { name: 'fingerprint', filename: 'fp.png', data: fingerprint },
    { name: 'selfie', filename: 'selfie.jpg', data: selfie },
    { name: 'id_card', filename: 'card.jpg', data: card },
  ];
  const post = (url: string, parts: FormPart[], headers: Record<string, string> = {}) => {
    const { body, contentType } = buildMultipart(parts);
    return server.app.inject({
      method: 'POST',
      url,
      payload: body,
      headers: { 'content-type': contentType, ...headers },
    });
  };
  const consoleVerify = (parts: FormPart[]) =>
    post('/api/console/run/verify', parts, { host: HOST, origin: `http://${HOST}`, cookie: operator });
  const lines = (body: string): VerifyStreamEvent[] =>
    body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as VerifyStreamEvent);
  const rowsSince = async (seq: number) =>
    (await server.services.audit.query({ limit: 50 })).filter((r) => r.seq > seq);
  const lastSeq = async () => (await server.services.audit.query({ limit: 1 }))[0]?.seq ?? 0;
  /** The console's verification over a real socket, its NDJSON body read as it streams. */
  const streamedVerify = async (impression: number) => {
    if (!server.app.server.listening) await server.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = server.app.server.address() as AddressInfo;
    const { body, contentType } = buildMultipart(form('+447911123456', print(101, impression)));
    const response = await fetch(`http://127.0.0.1:${port}/api/console/run/verify`, {
      method: 'POST',
      headers: { 'content-type': contentType, cookie: operator },
      body,
    });
    return response.body!.pipeThrough(new TextDecoderStream()).getReader();
  };

  beforeAll(async () => {
    server = await startTestServer({ engines: true });
    selfie = await sharp(samplePhoto(1))
      .extract({ left: 1290, top: 0, width: 520, height: 620 })
      .resize(480)
      .jpeg()
      .toBuffer();
    card = await renderIdCard({ person: 0 });
    const setup = await server.app.inject({
      method: 'POST',
      url: '/api/console/setup',
      headers: { host: HOST, origin: `http://${HOST}` },
      payload: { username: 'root', password: 'correct horse battery' },
    });
    const admin = String(setup.headers['set-cookie']).split(';')[0]!;
    await server.app.inject({
      method: 'POST',
      url: '/api/console/users',
      headers: { host: HOST, origin: `http://${HOST}`, cookie: admin },
      payload: { username: 'desk', password: 'correct horse battery', role: 'operator' },
    });
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/console/login',
      headers: { host: HOST, origin: `http://${HOST}` },
      payload: { username: 'desk', password: 'correct horse battery' },
    });
    operator = String(login.headers['set-cookie']).split(';')[0]!;
    const enrolled = await post('/v2/enroll-fp', [
      { name: 'mobile_number', value: '+44 7911 123456' },
      { name: 'file', filename: 'print.png', data: print(101, 0) },
    ]);
    expect(enrolled.statusCode).toBe(200);
  }, 240_000);
  afterAll(async () => server.close());

  it('streams each step starting and finishing, then the result, and writes one audit row', async () => {
    const before = await lastSeq();
    const response = await consoleVerify(form('+447911123456', print(101, 1)));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const events = lines(response.body);
    expect(events.map((e) => (e.type === 'step' ? `${e.step}:${e.phase}` : e.type))).toEqual([
      'fingerprint:started',
      'fingerprint:finished',
      'face_match:started',
      'face_match:finished',
      'id_card_check:started',
      'id_card_check:finished',
      'result',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'SUCCESS' });
    const fingerprint = events[1];
    expect(fingerprint).toMatchObject({ outcome: { status: 'SUCCESS', thresholdOneInN: 10_000 } });

    const rows = await rowsSince(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      route: '/api/console/run/verify',
      keyId: 'console:desk',
      authOutcome: 'console',
      httpStatus: 200,
      resultStatus: 'SUCCESS',
      failedStep: null,
      mobileMasked: '+4479*****456',
    });
    expect(Object.keys(JSON.parse(rows[0]!.scores ?? '{}') as object)).toEqual([
      'fingerprint',
      'face_match',
      'id_card',
    ]);
  });

  it('stops at the first rejection as /v2/verify does, with the same step, reason and score', async () => {
    const parts = form('+447911123456', print(202, 1));
    const api = (await post('/v2/verify', parts)).json<{ step: string; reason: string; score: number }>();
    const before = await lastSeq();
    const events = lines((await consoleVerify(parts)).body);
    expect(events.map((e) => e.type)).toEqual(['step', 'step', 'result']);
    expect(events[1]).toMatchObject({
      step: 'fingerprint',
      outcome: { status: 'REJECTED', reason: api.reason, score: api.score },
    });
    expect(events[2]).toMatchObject({ type: 'result', status: 'REJECTED', failedStep: api.step });
    const rows = await rowsSince(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      resultStatus: 'REJECTED',
      failedStep: 'fingerprint',
      reason: 'no_match',
    });
  });

  it('answers bad input before streaming, as a 4xx error body audited once', async () => {
    const before = await lastSeq();
    const response = await consoleVerify(form('12345', print(101, 1)));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 'ERROR', code: 'MOBILE_NUMBER_INVALID' });
    expect(await rowsSince(before)).toMatchObject([{ route: '/api/console/run/verify', httpStatus: 400 }]);
  });

  it('delivers the first steps while the later ones still run', async () => {
    const before = await lastSeq();
    const reader = await streamedVerify(2);
    let text = '';
    let auditedWhenFingerprintArrived: number | undefined;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      if (auditedWhenFingerprintArrived === undefined && text.includes('"phase":"finished"'))
        auditedWhenFingerprintArrived = (await rowsSince(before)).length;
    }
    // The row is written after the last step: the fingerprint's result reached the client before that.
    expect(auditedWhenFingerprintArrived).toBe(0);
    expect(lines(text).at(-1)).toMatchObject({ type: 'result', status: 'SUCCESS' });
    expect(await rowsSince(before)).toHaveLength(1);
  });

  it('stops when the operator leaves mid-run, audited as abandoned (499), not as a server error', async () => {
    const before = await lastSeq();
    server.logs.length = 0;
    const reader = await streamedVerify(3);
    let text = '';
    while (!text.includes('"phase":"started"')) text += (await reader.read()).value ?? '';
    await reader.cancel();
    await expect.poll(async () => (await rowsSince(before)).length, { timeout: 20_000 }).toBe(1);
    const [row] = await rowsSince(before);
    expect(row).toMatchObject({ httpStatus: 499, reason: 'client_closed', resultStatus: null });
    expect(server.logs.join('\n')).not.toMatch(/"level":50/);
  });
});
