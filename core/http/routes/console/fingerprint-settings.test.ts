import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGrayPng, syntheticFingerprint } from '../../../fingerprint/synthetic/index.js';
import { buildMultipart } from '../../../testing/multipart.js';
import { attachFingerprintEngine, startTestServer, type TestServer } from '../../../testing/services.js';
import type { ConsoleSettingsResponse, FingerprintPolicySetting, ThresholdSetting } from './api-types.js';

const HOST = '127.0.0.1:8787';

describe('console fingerprint settings (reader, duplicates, quality floor)', () => {
  let server: TestServer;
  let admin = '';
  let operator = '';

  const signIn = async (username: string): Promise<string> => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/console/login',
      headers: { host: HOST, origin: `http://${HOST}` },
      payload: { username, password: 'correct horse battery' },
    });
    expect(response.statusCode).toBe(200);
    return String(response.headers['set-cookie']).split(';')[0]!;
  };
  const put = (cookie: string, payload: unknown) =>
    server.app.inject({
      method: 'PUT',
      url: '/api/console/settings/fingerprint',
      headers: { host: HOST, origin: `http://${HOST}`, cookie },
      payload: payload as Record<string, unknown>,
    });
  const settings = async (): Promise<ConsoleSettingsResponse> =>
    (
      await server.app.inject({ url: '/api/console/settings', headers: { host: HOST, cookie: admin } })
    ).json<ConsoleSettingsResponse>();
  const enroll = (mobile: string, image: Buffer) => {
    const { body, contentType } = buildMultipart([
      { name: 'mobile_number', value: mobile },
      { name: 'file', filename: 'print.png', contentType: 'image/png', data: image },
    ]);
    return server.app.inject({
      method: 'POST',
      url: '/v2/enroll-fp',
      payload: body,
      headers: { 'content-type': contentType },
    });
  };

  beforeAll(async () => {
    server = await startTestServer();
    attachFingerprintEngine(server);
    const setup = await server.app.inject({
      method: 'POST',
      url: '/api/console/setup',
      headers: { host: HOST, origin: `http://${HOST}` },
      payload: { username: 'root', password: 'correct horse battery' },
    });
    admin = String(setup.headers['set-cookie']).split(';')[0]!;
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/console/users',
      headers: { host: HOST, origin: `http://${HOST}`, cookie: admin },
      payload: { username: 'desk', password: 'correct horse battery', role: 'operator' },
    });
    expect(created.statusCode).toBe(201);
    operator = await signIn('desk');
  });
  afterAll(async () => server.close());

  it('shows the defaults: a fixed reader, duplicates flagged, quality floor 20, 10 minutiae', async () => {
    expect((await settings()).fingerprint).toEqual({
      available: true,
      turn: 'upright',
      dedup: 'flag',
      qualityFloor: 20,
      minMinutiae: 10,
    });
  });

  it('moves the threshold to the other calibration when the reader changes, keeping its 1 in N', async () => {
    const chosen = await server.app.inject({
      method: 'PUT',
      url: '/api/console/settings/threshold/fingerprint',
      headers: { host: HOST, origin: `http://${HOST}`, cookie: admin },
      payload: { oneInN: 100 },
    });
    const upright = chosen.json<ThresholdSetting>();
    expect(upright.calibrationSource).toContain('turn upright');

    const changed = await put(admin, { turn: 'any' });
    expect(changed.statusCode).toBe(200);
    const { fingerprint, threshold } = changed.json<{
      fingerprint: FingerprintPolicySetting;
      threshold: ThresholdSetting;
    }>();
    expect(fingerprint.turn).toBe('any');
    expect(threshold.oneInN).toBe(100);
    expect(threshold.calibrationSource).toContain('turn any');
    expect(threshold.threshold).toBe(threshold.calibration.find((p) => p.oneInN === 100)!.threshold);
    expect(threshold.threshold).not.toBe(upright.threshold);
    // The settings screen shows the same, and only the field sent changed.
    const after = await settings();
    expect(after.fingerprint).toMatchObject({ turn: 'any', dedup: 'flag', qualityFloor: 20 });
    expect(after.thresholds.find((t) => t.engine === 'fingerprint')!.threshold).toBe(threshold.threshold);
    const [audit] = await server.services.audit.query({ limit: 1 });
    expect(audit).toMatchObject({ event: 'settings.fingerprint', keyId: 'console:root' });
  });

  it('refuses a duplicate finger once duplicates are set to be refused, and poor prints under a raised floor', async () => {
    const first = await enroll('447911123001', encodeGrayPng(syntheticFingerprint(31, 0)));
    expect(first.statusCode).toBe(200);
    expect((await put(admin, { dedup: 'reject' })).statusCode).toBe(200);
    const duplicate = await enroll('447911123002', encodeGrayPng(syntheticFingerprint(31, 1)));
    expect(duplicate.statusCode).toBe(409);

    expect((await put(admin, { dedup: 'flag', qualityFloor: 100 })).statusCode).toBe(200);
    const poor = await enroll('447911123003', encodeGrayPng(syntheticFingerprint(32, 0)));
    expect(poor.statusCode).toBe(422);
    expect(poor.json()).toMatchObject({ status: 'ERROR', code: expect.any(String) });
    expect((await put(admin, { qualityFloor: 20 })).statusCode).toBe(200);
    expect((await enroll('447911123003', encodeGrayPng(syntheticFingerprint(32, 0)))).statusCode).toBe(200);
  });

  it('answers 400 to bad values, 403 to operators, and keeps the stored settings', async () => {
    const before = (await settings()).fingerprint;
    for (const bad of [
      { turn: 'sideways' },
      { qualityFloor: 101 },
      { qualityFloor: 12.5 },
      { minMinutiae: 0 },
      { dedup: 'flag', unknown: 1 },
      {},
    ]) {
      const response = await put(admin, bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json()).toMatchObject({ status: 'ERROR', code: expect.any(String) });
    }
    expect((await put(operator, { dedup: 'reject' })).statusCode).toBe(403);
    expect((await settings()).fingerprint).toEqual(before);
  });
});
