import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMultipart } from '../testing/multipart.js';
import { texturedJpeg } from '../testing/images.js';

/** The headless mode as a user runs it: a real process, a real socket, the flags and environment of the README. */
describe('npm run serve (real process and socket)', () => {
  let child: ChildProcess;
  let url = '';
  let dataDir = '';
  const output: string[] = [];

  beforeAll(async () => {
    dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'idv-serve-')), 'data');
    child = spawn('npx', ['tsx', 'core/cli/serve.ts', '--port', '0', '--log-level', 'warn'], {
      env: { ...process.env, IDV_DATA_DIR: dataDir, IDV_HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so the test can stop npx, tsx and the server together.
      detached: true,
    });
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`server did not start: ${output.join('')}`));
      }, 110_000);
      const onData = (chunk: Buffer): void => {
        output.push(chunk.toString());
        const match = /listening on (http:\/\/\S+)/.exec(output.join(''));
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
      child.on('exit', (code) => {
        reject(new Error(`server exited ${code}: ${output.join('')}`));
      });
    });
  }, 120_000);

  afterAll(async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  });

  it('keeps the console API out of the public OpenAPI document', async () => {
    const doc = (await (await fetch(new URL('openapi.json', url))).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/console'))).toBe(false);
    expect(doc.paths).toHaveProperty('/v2/verify');
  });

  it('prints its URL and serves health and the OpenAPI document', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const health = await fetch(new URL('docs/orchestrator/api/health', url));
    expect([200, 503]).toContain(health.status);
    expect(((await health.json()) as { store: { reachable: boolean } }).store.reachable).toBe(true);
    const openapi = await fetch(new URL('openapi.json', url));
    expect(openapi.status).toBe(200);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('answers a bad upload over the socket with a 4xx error body and stays up', async () => {
    const jpeg = await texturedJpeg(64, 64);
    const form = (selfie: Buffer) =>
      buildMultipart([
        { name: 'mobile_number', value: '447911123456' },
        { name: 'fingerprint', filename: 'print.jpg', data: jpeg },
        { name: 'selfie', filename: 'selfie.jpg', data: selfie },
        { name: 'id_card', filename: 'card.jpg', data: jpeg },
      ]);
    for (const [selfie, code] of [
      [Buffer.from('GIF89a not really'), 'IMAGE_UNSUPPORTED'],
      [jpeg.subarray(0, 100), 'IMAGE_TRUNCATED'],
    ] as const) {
      const { body, contentType } = form(selfie);
      const res = await fetch(new URL('v2/verify', url), {
        method: 'POST',
        body,
        headers: { 'content-type': contentType },
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({ status: 'ERROR', code, field: 'selfie' });
    }
    expect((await fetch(new URL('docs/fingerprint/api/', url))).status).toBe(200);
  });
});
