import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/services.js';
import { installOpenApi } from './openapi.js';
import { registerStaticAssets } from './routes/console/static-assets.js';

interface Operation {
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}
interface Schema {
  $ref?: string;
  required?: string[];
  properties?: Record<string, unknown>;
  oneOf?: { required: string[] }[];
}

/** Fields each request body requires, as the routes check them. */
const REQUIRED: Record<string, string[]> = {
  'POST /v2/verify': ['mobile_number', 'fingerprint', 'selfie', 'id_card'],
  'POST /v2/enroll-fp': ['mobile_number', 'file'],
  'POST /v2/verify-fp': ['mobile_number'],
  'POST /v2/match-faces': ['selfie', 'id_card'],
  'POST /v1/verify': ['id_card'],
  'POST /docs/fingerprint/api/enroll': ['mobile_number', 'image'],
  'POST /docs/fingerprint/api/verify': ['mobile_number', 'image'],
  'POST /docs/fingerprint/api/search': ['image'],
  'POST /docs/face-matching/api/match': ['selfie', 'id_card'],
  'POST /docs/face-matching/api/quality': ['image'],
  'POST /docs/liveness/api/check': ['image'],
  'POST /docs/ocr/api/extract': ['image'],
  'POST /docs/orchestrator/api/verify': ['selfie', 'id_card'],
};

describe('the OpenAPI document', () => {
  let server: TestServer;
  let doc: {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, unknown> };
  };
  beforeAll(async () => {
    server = await startTestServer();
    doc = (await server.app.inject({ url: '/openapi.json' })).json();
  });
  afterAll(async () => server.close());

  const operations = (): [string, Operation][] =>
    Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.entries(methods).map(([method, op]): [string, Operation] => [
        `${method.toUpperCase()} ${p}`,
        op,
      ]),
    );

  it('lists the public API only: no console page, asset or console API', () => {
    for (const p of Object.keys(doc.paths)) expect(p).toMatch(/^\/(v1|v2|docs)\//);
    expect(operations().length).toBeGreaterThanOrEqual(27);
  });

  it('describes every response in words of its own, never a default or a file integrators lack', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('DESIGN.md');
    expect(text).not.toContain('Default Response');
    for (const [name, op] of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.description.length, `${name} ${status}`).toBeGreaterThan(20);
        if (Number(status) >= 400 && !name.endsWith('/health')) {
          const schema = response.content?.['application/json']?.schema;
          expect(schema?.$ref, `${name} ${status}`).toBe('#/components/schemas/ErrorBody');
        }
      }
      // Each error status of one operation says something different.
      const errors = Object.entries(op.responses).filter(([s]) => Number(s) >= 400);
      expect(new Set(errors.map(([, r]) => r.description)).size, name).toBe(errors.length);
    }
  });

  it('lists the error statuses each operation can answer', () => {
    for (const [name, op] of operations()) {
      const statuses = Object.keys(op.responses);
      if (op.security) {
        for (const s of ['401', '429', '500', '501']) expect(statuses, `${name} ${s}`).toContain(s);
      } else {
        expect(
          statuses.filter((s) => ['401', '429'].includes(s)),
          name,
        ).toEqual([]);
      }
      if (op.requestBody)
        for (const s of ['400', '413', '415']) expect(statuses, `${name} ${s}`).toContain(s);
      if (!op.requestBody)
        expect(
          statuses.filter((s) => ['413', '415'].includes(s)),
          name,
        ).toEqual([]);
    }
    expect(Object.keys(doc.paths['/v2/enroll-fp']!.post!.responses)).toContain('409');
    expect(Object.keys(doc.paths['/docs/fingerprint/api/enrollments/{mobile}']!.get!.responses)).toContain(
      '404',
    );
    expect(Object.keys(doc.paths['/v2/verify-fp']!.post!.responses)).not.toContain('404');
  });

  it('marks exactly the fields each route requires', () => {
    const seen = new Set<string>();
    for (const [name, op] of operations()) {
      if (!op.requestBody) continue;
      seen.add(name);
      const [type, media] = Object.entries(op.requestBody.content)[0]!;
      expect(type, name).toBe(name.startsWith('POST /v') ? 'multipart/form-data' : 'application/json');
      expect([...(media.schema.required ?? [])].sort(), name).toEqual([...(REQUIRED[name] ?? ['?'])].sort());
      for (const field of media.schema.required ?? [])
        expect(media.schema.properties, name).toHaveProperty(field);
    }
    expect([...seen].sort()).toEqual(Object.keys(REQUIRED).sort());
    const verifyFp = doc.paths['/v2/verify-fp']!.post!.requestBody!.content['multipart/form-data']!.schema;
    expect(verifyFp.oneOf).toEqual([{ required: ['fingerprint'] }, { required: ['file'] }]);
  });
});

describe('the OpenAPI document of an app serving the built console', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-dist-'));
  afterAll(() => {
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('hides the console pages and assets', async () => {
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>IDV Console</title>');
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    const app = Fastify();
    await installOpenApi(app);
    app.post(
      '/v2/example',
      {
        schema: {
          summary: 'An API route',
          response: { 200: { type: 'object', description: 'What it answers.' } },
        },
      },
      () => ({}),
    );
    await registerStaticAssets(app, dist);
    await app.ready();
    const doc = (await app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, unknown> }>();
    const paths = Object.keys(doc.paths);
    expect((await app.inject({ url: '/audit' })).statusCode).toBe(200);
    expect(paths).toEqual(['/v2/example']);
    await app.close();
  });
});
