import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine, FACE_MODEL_NAMES, FaceInference } from '../../face/index.js';
import { PEOPLE, idCardOf, selfieOf } from '../../face/testing/fixtures.js';
import { buildMultipart } from '../../testing/multipart.js';
import { startTestServer, type TestServer } from '../../testing/services.js';
import type { WorkerLane } from '../../workers/index.js';
import type { faultHandlers } from '../../workers/testing/fault-handlers.js';

/** Fail with a clear message instead of letting a hung request run into the test timeout. */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('face routes when a face worker dies (real models, real workers)', () => {
  let server: TestServer;
  let inference: FaceInference;
  let faults: WorkerLane<typeof faultHandlers>;
  let selfie: Buffer;
  let card: Buffer;
  const marker = path.join(os.tmpdir(), `idv-face-fault-${process.pid}`);

  beforeAll(async () => {
    fs.rmSync(marker, { force: true });
    server = await startTestServer();
    // One face worker that also loads the pool's fault group (which can make it exit on its next job).
    inference = await FaceInference.open(
      FACE_MODEL_NAMES,
      {},
      {
        size: 1,
        extraGroups: ['test-faults'],
        extraInit: { 'test-faults': { failStartIfExists: marker } },
        restartCooldownMs: 60_000,
      },
    );
    faults = inference.lane as unknown as WorkerLane<typeof faultHandlers>;
    const face = await createFaceEngine({ settings: server.services.settings, workers: inference });
    server.services.face = face;
    server.services.liveness = face;
    server.services.disposers.push(() => face.dispose());
    selfie = await selfieOf(PEOPLE.a);
    card = await idCardOf(PEOPLE.a);
  });
  afterAll(async () => {
    fs.rmSync(marker, { force: true });
    await server.close();
  });

  const match = () => {
    const { body, contentType } = buildMultipart([
      { name: 'selfie', filename: 's.jpg', contentType: 'image/jpeg', data: selfie },
      { name: 'id_card', filename: 'c.jpg', contentType: 'image/jpeg', data: card },
    ]);
    return server.app.inject({
      method: 'POST',
      url: '/v2/match-faces',
      payload: body,
      headers: { 'content-type': contentType },
    });
  };
  const health = () => server.app.inject({ url: '/docs/face-matching/api/health' });

  it('answers 503 with Retry-After for the request whose worker died, then serves the next one', async () => {
    expect((await match()).json()).toMatchObject({ status: 'SUCCESS' });
    // The next model call in the worker ends the thread: the request in flight loses its worker.
    await faults.run('fault.arm', { fault: 'exit' });
    const lost = await within(20_000, match());
    expect(lost.statusCode).toBe(503);
    expect(lost.headers['retry-after']).toBeDefined();
    expect(lost.json()).toMatchObject({ status: 'ERROR', code: 'ENGINE_UNAVAILABLE' });

    const next = await within(60_000, match());
    expect(next.statusCode).toBe(200);
    expect(next.json()).toMatchObject({ status: 'SUCCESS' });
    const live = await server.app.inject({
      method: 'POST',
      url: '/docs/liveness/api/check',
      payload: { image: selfie.toString('base64') },
    });
    expect(live.statusCode).toBe(200);

    const report = await health();
    expect(report.statusCode).toBe(200);
    const workers = report.json<{ engine: { workers: { face: Record<string, unknown> } } }>().engine.workers;
    expect(workers.face).toMatchObject({ state: 'ready', replaced: 1, workers: 1 });
    expect((workers.face.lastFailure as { reason: string }).reason).toMatch(/exited/);
  });

  it('reports that it cannot serve when replacement workers keep failing to start, and refuses at once', async () => {
    // From now on a face worker cannot start; then the running one dies.
    fs.writeFileSync(marker, '');
    await faults.run('fault.arm', { fault: 'exit' });
    const lost = await within(20_000, match());
    expect(lost.statusCode).toBe(503);
    // Three failed starts (with backoff) and the lane gives up.
    const deadline = Date.now() + 30_000;
    while (inference.stats().state !== 'failed' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const report = await health();
    expect(report.statusCode).toBe(503);
    expect(report.json()).toMatchObject({
      status: 'error',
      engine: { status: 'error', workers: { face: { state: 'failed', startFailures: 3 } } },
    });
    expect(report.json<{ engine: { message: string } }>().engine.message).toMatch(
      /face workers cannot start/,
    );
    const refused = await within(5_000, match());
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
