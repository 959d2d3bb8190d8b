import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerStaticAssets } from './static-assets.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-dist-'));

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('console assets', () => {
  it('says how to build the console when renderer/dist is missing', async () => {
    const app = Fastify();
    await registerStaticAssets(app, path.join(dir, 'missing'));
    const response = await app.inject({ url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('npm run build:renderer');
    await app.close();
  });

  it('serves the built app at / and its screens (SPA fallback)', async () => {
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>IDV Console</title>');
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
    const app = Fastify();
    await registerStaticAssets(app, dir);
    expect((await app.inject({ url: '/' })).body).toContain('IDV Console');
    expect((await app.inject({ url: '/audit' })).body).toContain('IDV Console');
    expect((await app.inject({ url: '/assets/app.js' })).body).toContain('console.log');
    expect((await app.inject({ url: '/nope' })).statusCode).toBe(404);
    await app.close();
  });
});
