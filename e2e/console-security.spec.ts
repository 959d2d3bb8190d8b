import http from 'node:http';
import { expect, test } from '@playwright/test';
import { ADMIN, setupAdmin } from './support/console.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let admin: string;

/** A raw request with full control of Host and Origin (fetch forbids setting Host). */
function raw(
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port: server.port, path, method, headers },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body: text });
        });
      },
    );
    request.on('error', reject);
    if (body) request.write(body);
    request.end();
  });
}

test.beforeAll(async () => {
  server = await startTestServer();
  admin = await setupAdmin(server);
});

test.afterAll(async () => {
  await server.stop();
});

test.describe('console API security', () => {
  test('the first-run setup closes once an admin exists', async () => {
    const state = await fetch(`${server.url}/api/console/setup-state`);
    expect(await state.json()).toEqual({ hasAdmin: true });
    const again = await fetch(`${server.url}/api/console/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'intruder', password: 'intruder password' }),
    });
    expect(again.status).toBe(409);
  });

  test('console routes refuse API keys, even valid ones', async () => {
    const created = await fetch(`${server.url}/api/console/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: admin },
      body: JSON.stringify({ description: 'Security e2e backend' }),
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    const withKey = await fetch(`${server.url}/api/console/keys`, {
      headers: { cookie: admin, 'x-api-key': key },
    });
    expect(withKey.status).toBe(403);
    const keyOnly = await fetch(`${server.url}/api/console/audit`, { headers: { 'x-api-key': key } });
    expect(keyOnly.status).toBe(403);
  });

  test('a foreign Origin is refused', async () => {
    const foreign = await raw(
      '/api/console/keys',
      {
        host: `127.0.0.1:${server.port}`,
        origin: 'http://evil.example',
        cookie: admin,
        'content-type': 'application/json',
      },
      'POST',
      JSON.stringify({ description: 'cross-site attempt' }),
    );
    expect(foreign.status).toBe(403);
    const same = await raw('/api/console/me', {
      host: `127.0.0.1:${server.port}`,
      origin: `http://127.0.0.1:${server.port}`,
      cookie: admin,
    });
    expect(same.status).toBe(200);
  });

  test('a foreign Host (DNS rebinding) is refused', async () => {
    const rebound = await raw('/api/console/me', { host: `attacker.example:${server.port}`, cookie: admin });
    expect(rebound.status).toBe(403);
    const loopbackName = await raw('/api/console/me', { host: `localhost:${server.port}`, cookie: admin });
    expect(loopbackName.status).toBe(200);
  });

  test('no session, a bad password and a wrong role are refused', async () => {
    expect((await fetch(`${server.url}/api/console/me`)).status).toBe(401);
    const bad = await fetch(`${server.url}/api/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.username, password: 'not the password' }),
    });
    expect(bad.status).toBe(401);
    await fetch(`${server.url}/api/console/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: admin },
      body: JSON.stringify({ username: 'opal', password: 'operator password 9', role: 'operator' }),
    });
    const login = await fetch(`${server.url}/api/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'opal', password: 'operator password 9' }),
    });
    const operator = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await fetch(`${server.url}/api/console/keys`, { headers: { cookie: operator } })).status).toBe(
      403,
    );
    expect((await fetch(`${server.url}/api/console/audit`, { headers: { cookie: operator } })).status).toBe(
      403,
    );
  });

  test('the session cookie is HttpOnly and SameSite=Strict, and logout ends it', async () => {
    const login = await fetch(`${server.url}/api/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const header = login.headers.get('set-cookie') ?? '';
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    const cookie = header.split(';')[0]!;
    await fetch(`${server.url}/api/console/logout`, { method: 'POST', headers: { cookie } });
    expect((await fetch(`${server.url}/api/console/me`, { headers: { cookie } })).status).toBe(401);
  });
});
