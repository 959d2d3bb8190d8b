import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGrayPng, syntheticFingerprint } from '../fingerprint/synthetic/index.js';
import { hostileImages } from '../testing/hostile-images.js';
import { jsonAbuse, jsonTextAbuse } from '../testing/hostile-json.js';
import {
  imageRequests,
  JSON_ROUTES,
  MULTIPART_ROUTES,
  multipart,
  MULTIPART_TYPE,
  type HostileRequest,
} from '../testing/hostile-requests.js';
import { multipartAbuse, multipartTextAbuse } from '../testing/hostile-multipart.js';
import { texturedJpeg } from '../testing/images.js';
import { startTestServer, type TestServer } from '../testing/services.js';

interface Answer {
  status: number;
  body: string;
}

/** POST raw bytes over a real socket (the HTTP parser and multipart stream run as in production). */
function send(port: number, agent: http.Agent, request: HostileRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-length': request.body.length };
    if (request.contentType !== undefined) headers['content-type'] = request.contentType;
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: request.url, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
        });
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

describe('hostile input over every POST route (real engines, real sockets)', () => {
  let server: TestServer;
  let port: number;
  let documented: Record<string, string[]>;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  beforeAll(async () => {
    server = await startTestServer({ engines: true });
    // Every case must reach the route: the per-caller rate limit would answer most of them 429.
    await server.services.settings.set('limits.rateLimitPerMinute', 1_000_000);
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    port = (server.app.server.address() as AddressInfo).port;
    const doc = (await server.app.inject({ url: '/openapi.json' })).json();
    documented = Object.fromEntries(
      Object.entries(doc.paths as Record<string, { post?: { responses: Record<string, unknown> } }>)
        .filter(([, ops]) => ops.post)
        .map(([p, ops]) => [p, Object.keys(ops.post!.responses)]),
    );
  }, 240_000);
  afterAll(async () => {
    agent.destroy();
    await server.close();
  });

  it('answers every case with a 4xx and a code, or an answer, never a 5xx; the server stays whole', async () => {
    const valid = await texturedJpeg(64, 48);
    const images = await hostileImages();
    const refused = images.filter((image) => !image.mayDecode);
    const usable = images.filter((image) => image.mayDecode);
    const routes = [...MULTIPART_ROUTES, ...JSON_ROUTES];
    // Groups are built one at a time: some cases carry tens of megabytes.
    const groups: (() => HostileRequest[])[] = [
      () => imageRequests(refused, routes, valid),
      // Images an engine may accept go to one route each, in turn: engines take seconds, refusals milliseconds.
      () => usable.flatMap((image, i) => imageRequests([image], [routes[i % routes.length]!], valid, i)),
      ...MULTIPART_ROUTES.map((route) => () => [
        ...multipartAbuse(route, valid),
        ...multipartTextAbuse(route, valid),
      ]),
      ...JSON_ROUTES.map((route) => () => [...jsonAbuse(route, valid), ...jsonTextAbuse(route, valid)]),
      () => [
        {
          name: 'a JSON body over the body limit',
          url: '/docs/ocr/api/extract',
          contentType: 'application/json',
          body: Buffer.from(`{"pad":"${'A'.repeat(48 * 1024 * 1024)}"}`),
          mayPass: false,
        },
        {
          name: 'a multipart body to a JSON route',
          url: '/docs/fingerprint/api/enroll',
          contentType: MULTIPART_TYPE,
          body: multipart([{ name: 'image', value: valid, filename: 'a.jpg' }]),
          mayPass: false,
        },
      ],
    ];
    const failures: string[] = [];
    let count = 0;
    const statuses = new Map<number, number>();
    for (const group of groups) {
      for (const request of group()) {
        count++;
        const label = `${request.url} · ${request.name}`;
        let answer: Answer;
        try {
          answer = await send(port, agent, request);
        } catch (error) {
          failures.push(`${label}: no answer (${(error as Error).message})`);
          continue;
        }
        const { status } = answer;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status >= 500 || status === 429 || (!request.mayPass && status < 400) || status < 200) {
          failures.push(`${label}: HTTP ${status} ${answer.body.slice(0, 160)}`);
          continue;
        }
        if (!documented[request.url]?.includes(String(status)))
          failures.push(`${label}: HTTP ${status} is not documented`);
        if (status < 400) continue;
        let body: { status?: string; code?: string; message?: string };
        try {
          body = JSON.parse(answer.body) as typeof body;
        } catch {
          failures.push(`${label}: HTTP ${status} without a JSON body`);
          continue;
        }
        if (body.status !== 'ERROR' || !/^[A-Z_]+$/.test(body.code ?? '') || !body.message) {
          failures.push(`${label}: HTTP ${status} without the error body: ${answer.body.slice(0, 160)}`);
        } else if (/\b(\w+) \1\b/i.test(body.message)) {
          failures.push(`${label}: message repeats a word: ${body.message}`);
        }
      }
    }
    console.info(
      `${count} hostile requests; answers by status: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThanOrEqual(200);

    // The server is whole: every sub-service healthy, the audit chain intact, a genuine print enrolls and verifies.
    for (const name of ['fingerprint', 'liveness', 'face-matching', 'ocr', 'orchestrator']) {
      const health = await fetch(`http://127.0.0.1:${port}/docs/${name}/api/health`);
      expect(health.status, name).toBe(200);
    }
    expect(await server.services.audit.verifyChain()).toMatchObject({ ok: true });
    const print = (impression: number) => encodeGrayPng(syntheticFingerprint(4242, impression), 500);
    const enrol = await send(port, agent, {
      name: 'genuine enrollment',
      url: '/v2/enroll-fp',
      contentType: MULTIPART_TYPE,
      body: multipart([
        { name: 'mobile_number', value: '447911123456' },
        { name: 'file', value: print(0), filename: 'print.png' },
      ]),
      mayPass: true,
    });
    expect(JSON.parse(enrol.body)).toMatchObject({ status: 'SUCCESS' });
    const verify = await send(port, agent, {
      name: 'genuine verification',
      url: '/v2/verify-fp',
      contentType: MULTIPART_TYPE,
      body: multipart([
        { name: 'mobile_number', value: '447911123456' },
        { name: 'fingerprint', value: print(1), filename: 'print.png' },
      ]),
      mayPass: true,
    });
    expect(JSON.parse(verify.body)).toMatchObject({ status: 'SUCCESS' });
  }, 600_000);
});
