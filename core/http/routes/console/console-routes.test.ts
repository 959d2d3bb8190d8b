import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, disposeServices, type Services } from '../../../services/container.js';
import { texturedJpeg } from '../../../testing/images.js';
import { buildMultipart } from '../../../testing/multipart.js';
import { buildServer } from '../../app.js';
import type { AuditPageResponse, ConsoleSettingsResponse } from './api-types.js';

const HOST = '127.0.0.1:8787';
let dir: string;
let services: Services;
let app: FastifyInstance;

function cookieOf(response: { headers: Record<string, unknown> }): string {
  const header = String(response.headers['set-cookie']);
  return header.split(';')[0]!;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-console-'));
  services = await createServices({ dataDir: dir, engines: false });
  app = await buildServer(services);
});

afterAll(async () => {
  await app.close();
  await disposeServices(services);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('console API', () => {
  let admin = '';

  it("sets up the first admin once, with the customers' country, then signs in with a hardened cookie", async () => {
    const state = await app.inject({ url: '/api/console/setup-state', headers: { host: HOST } });
    expect(state.json()).toEqual({ hasAdmin: false });
    const badCountry = await app.inject({
      method: 'POST',
      url: '/api/console/setup',
      headers: { host: HOST, origin: `http://${HOST}` },
      payload: { username: 'root', password: 'correct horse battery', country: 'XX' },
    });
    expect(badCountry.json()).toMatchObject({ code: 'FIELD_INVALID', field: 'country' });
    const still = await app.inject({ url: '/api/console/setup-state', headers: { host: HOST } });
    expect(still.json()).toEqual({ hasAdmin: false });
    const setup = await app.inject({
      method: 'POST',
      url: '/api/console/setup',
      headers: { host: HOST, origin: `http://${HOST}` },
      payload: { username: 'root', password: 'correct horse battery', country: 'gh' },
    });
    expect(setup.statusCode).toBe(201);
    const cookie = String(setup.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    admin = cookieOf(setup);
    const again = await app.inject({
      method: 'POST',
      url: '/api/console/setup',
      headers: { host: HOST },
      payload: { username: 'other', password: 'correct horse battery' },
    });
    expect(again.statusCode).toBe(409);
    const me = await app.inject({ url: '/api/console/me', headers: { host: HOST, cookie: admin } });
    expect(me.json()).toMatchObject({
      user: { username: 'root', role: 'admin' },
      authMode: 'observe',
      defaultCountry: 'GH',
    });
  });

  it('shows the thresholds the engines decide with before any admin chose one', async () => {
    const settings = await app.inject({
      url: '/api/console/settings',
      headers: { host: HOST, cookie: admin },
    });
    const body = settings.json<ConsoleSettingsResponse>();
    expect(body.thresholds.map(({ engine, oneInN, isDefault }) => ({ engine, oneInN, isDefault }))).toEqual([
      { engine: 'face', oneInN: 1_000, isDefault: true },
      { engine: 'fingerprint', oneInN: 10_000, isDefault: true },
    ]);
    expect(body.console).toEqual({ defaultCountry: 'GH' });
  });

  it('lets an admin change the default country, and refuses a code that is no country', async () => {
    const put = (defaultCountry: string) =>
      app.inject({
        method: 'PUT',
        url: '/api/console/settings/console',
        headers: { host: HOST, cookie: admin },
        payload: { defaultCountry },
      });
    expect((await put('ke')).json()).toEqual({ defaultCountry: 'KE' });
    expect((await put('ZZ')).json()).toMatchObject({ code: 'FIELD_INVALID', field: 'defaultCountry' });
    const me = await app.inject({ url: '/api/console/me', headers: { host: HOST, cookie: admin } });
    expect(me.json()).toMatchObject({ defaultCountry: 'KE' });
  });

  it('refuses API keys, foreign hosts and foreign origins', async () => {
    const withKey = await app.inject({
      url: '/api/console/me',
      headers: { host: HOST, cookie: admin, 'x-api-key': 'x' },
    });
    expect(withKey.statusCode).toBe(403);
    const rebound = await app.inject({
      url: '/api/console/me',
      headers: { host: 'evil.example:8787', cookie: admin },
    });
    expect(rebound.statusCode).toBe(403);
    const foreign = await app.inject({
      method: 'POST',
      url: '/api/console/keys',
      headers: { host: HOST, cookie: admin, origin: 'http://evil.example' },
      payload: { description: 'stolen' },
    });
    expect(foreign.statusCode).toBe(403);
  });

  it('enforces roles and lets an admin issue and revoke keys', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/console/users',
      headers: { host: HOST, cookie: admin },
      payload: { username: 'audrey', password: 'auditor password 1', role: 'auditor' },
    });
    expect(created.statusCode).toBe(201);
    const login = await app.inject({
      method: 'POST',
      url: '/api/console/login',
      headers: { host: HOST },
      payload: { username: 'audrey', password: 'auditor password 1' },
    });
    expect(login.statusCode).toBe(200);
    const auditor = cookieOf(login);
    const forbidden = await app.inject({
      url: '/api/console/keys',
      headers: { host: HOST, cookie: auditor },
    });
    expect(forbidden.statusCode).toBe(403);
    const anonymous = await app.inject({ url: '/api/console/keys', headers: { host: HOST } });
    expect(anonymous.statusCode).toBe(401);

    const key = await app.inject({
      method: 'POST',
      url: '/api/console/keys',
      headers: { host: HOST, cookie: admin },
      payload: { description: 'Branch onboarding backend' },
    });
    expect(key.statusCode).toBe(201);
    const { id, key: secret } = key.json<{ id: string; key: string }>();
    expect(secret).toMatch(/^idv_/);
    const list = await app.inject({ url: '/api/console/keys', headers: { host: HOST, cookie: admin } });
    expect(JSON.stringify(list.json())).not.toContain(secret);
    const revoked = await app.inject({
      method: 'POST',
      url: `/api/console/keys/${id}/revoke`,
      headers: { host: HOST, cookie: admin },
    });
    expect(revoked.json()).toMatchObject({ id });

    const called = await app.inject({
      method: 'POST',
      url: '/v2/verify',
      headers: { host: HOST, 'x-api-key': secret },
    });
    expect(called.statusCode).toBeGreaterThanOrEqual(400);
    const page = await app.inject({
      url: '/api/console/audit?limit=3',
      headers: { host: HOST, cookie: auditor },
    });
    expect(page.statusCode).toBe(200);
    const body = page.json<AuditPageResponse>();
    expect(body.rows).toHaveLength(3);
    expect(body.nextBefore).not.toBeNull();
    expect(body.rows.map((r) => r.keyId)).toEqual([id, 'console:root', 'console:root']);
    // Callers by name: the key's use-case description, the console account.
    expect(body.callers).toEqual({
      [id]: `Branch onboarding backend (key idv_${secret.split('_')[1]}…)`,
      'console:root': 'root (console)',
    });
    const csv = await app.inject({
      url: '/api/console/audit/export.csv',
      headers: { host: HOST, cookie: auditor },
    });
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.body.split('\n')[0]).toMatch(/^seq,time/);
    const chain = await app.inject({
      method: 'POST',
      url: '/api/console/audit/verify',
      headers: { host: HOST, cookie: auditor },
    });
    expect(chain.json()).toMatchObject({ ok: true });
  });

  it('answers 501 for operator actions of engines that are not built', async () => {
    const engines = await app.inject({ url: '/api/console/engines', headers: { host: HOST, cookie: admin } });
    expect(engines.json()).toMatchObject({ fingerprint: false, face: false, document: false });
    const image = await texturedJpeg(64, 64);
    const { body, contentType } = buildMultipart([
      { name: 'mobile_number', value: '+447911123456' },
      { name: 'fingerprint', filename: 'fp.jpg', data: image },
      { name: 'selfie', filename: 'selfie.jpg', data: image },
      { name: 'id_card', filename: 'card.jpg', data: image },
    ]);
    const run = await app.inject({
      method: 'POST',
      url: '/api/console/run/verify',
      headers: { host: HOST, cookie: admin, 'content-type': contentType },
      payload: body,
    });
    expect(run.statusCode).toBe(501);
    expect(run.json()).toMatchObject({ code: 'NOT_IMPLEMENTED' });
  });
});
