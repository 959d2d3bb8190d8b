import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idCardOf, PEOPLE, selfieOf } from '../../face/testing/fixtures.js';
import { attachOrchestrator } from '../../services/orchestrator/attach.js';
import { readStream } from '../../services/outbox/jetstream-reader.js';
import { startNatsServer, type NatsTestServer } from '../../services/outbox/nats-test-server.js';
import { attachFaceEngine, startTestServer, type TestServer } from '../../testing/services.js';

interface Stage {
  status: string;
  score: number | null;
  raw_score?: number;
  attempts: number;
  latency_ms: number;
}
interface VerifyBody {
  status: string;
  decision: string;
  combined_score: number | null;
  stages: { liveness: Stage; face_match: Stage };
  event_id: string;
  request_id: string;
  reference: string | null;
  reference_masked: boolean;
  model_versions: Record<string, string>;
}

const URL = '/docs/orchestrator/api/verify';

describe('POST /docs/orchestrator/api/verify with the real face engine and a real broker', () => {
  let nats: NatsTestServer;
  let server: TestServer;
  let selfieA: string;
  let cardA: string;
  let cardC: string;

  beforeAll(async () => {
    nats = await startNatsServer();
    server = await startTestServer();
    await attachFaceEngine(server);
    await attachOrchestrator(server.services, nats.url);
    // Run both stages on every request so each test sees both scores; gating itself is tested in pipeline.test.ts.
    await server.services.orchestrator!.setConfig({ gating: { fail_fast: false } });
    [selfieA, cardA, cardC] = (
      await Promise.all([selfieOf(PEOPLE.a), idCardOf(PEOPLE.a), idCardOf(PEOPLE.c)])
    ).map((b) => b.toString('base64')) as [string, string, string];
  });
  afterAll(async () => {
    try {
      await (server as TestServer | undefined)?.close();
    } finally {
      await (nats as NatsTestServer | undefined)?.dispose();
    }
  });

  const verify = (body: Record<string, unknown>) =>
    server.app.inject({ method: 'POST', url: URL, payload: body });
  const outboxRows = async (): Promise<number> => (await server.services.store.outbox.after(0, 1000)).length;

  it('decides, audits, records the event in the outbox and delivers it to JetStream', async () => {
    const response = await verify({ selfie: selfieA, id_card: cardA, reference: '+4915112345678' });
    expect(response.statusCode).toBe(200);
    const body = response.json<VerifyBody>();
    expect(['APPROVED', 'REJECTED', 'REVIEW']).toContain(body.decision);
    expect(body.status).toBe(body.decision === 'APPROVED' ? 'SUCCESS' : body.decision);
    for (const stage of [body.stages.liveness, body.stages.face_match]) {
      expect(stage.attempts).toBeGreaterThanOrEqual(1);
      expect(stage.latency_ms).toBeGreaterThan(0);
    }
    expect(typeof body.stages.face_match.raw_score).toBe('number');
    expect(body.reference).toBe('+4**********78');
    expect(Object.keys(body.model_versions)).toContain('fr_feature');

    const audit = (await server.services.audit.query({ limit: 1000 })).find(
      (r) => r.requestId === body.request_id,
    )!;
    expect(audit.resultStatus).toBe(body.status);
    const row = (await server.services.store.outbox.after(0, 1000)).find((r) => r.eventId === body.event_id)!;
    const payload = JSON.parse(row.payload) as Record<string, unknown>;
    expect(payload).toMatchObject({
      id: body.event_id,
      request_id: body.request_id,
      decision: body.decision,
    });
    // Never an image, never the raw reference.
    expect(row.payload.length).toBeLessThan(4000);
    expect(row.payload).not.toContain(selfieA.slice(100, 200));
    expect(row.payload).not.toContain('4915112345678');

    const deadline = Date.now() + 10_000;
    let found: Record<string, unknown> | undefined;
    while (!found && Date.now() < deadline) {
      found = (await readStream(nats.url)).messages.find((m) => m.msgId === body.event_id)?.payload;
      if (!found) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(found).toEqual(payload);
  });

  it('scores a different person lower on face matching and never approves them', async () => {
    const same = (await verify({ selfie: selfieA, id_card: cardA })).json<VerifyBody>();
    const other = (await verify({ selfie: selfieA, id_card: cardC })).json<VerifyBody>();
    expect(other.stages.face_match.raw_score!).toBeLessThan(same.stages.face_match.raw_score!);
    expect(other.stages.face_match.status).toBe('REJECTED');
    expect(other.decision).toBe('REJECTED');
  });

  it('answers bad input with a 4xx naming the field and records nothing', async () => {
    const before = await outboxRows();
    const missing = await verify({ selfie: selfieA });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ status: 'ERROR', code: 'FIELD_MISSING', field: 'id_card' });
    const notImage = await verify({ selfie: Buffer.from('not an image').toString('base64'), id_card: cardA });
    expect(notImage.statusCode).toBe(415);
    const badReference = await verify({ selfie: selfieA, id_card: cardA, reference: 'x'.repeat(200) });
    expect(badReference.statusCode).toBe(400);
    expect(badReference.json()).toMatchObject({ field: 'reference' });
    expect(await outboxRows()).toBe(before);
  });

  it('shows the active configuration and broker health on the service root', async () => {
    const root = (await server.app.inject({ url: '/docs/orchestrator/api/' })).json<
      Record<string, unknown>
    >();
    expect(root).toMatchObject({
      status: 'available',
      config: { gating: { fail_fast: false } },
      queue: { connected: true },
    });
    const health = await server.app.inject({ url: '/docs/orchestrator/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ engine: { broker: { connected: true }, outbox: { backlog: 0 } } });
  });

  it('keeps answering while the broker is down and delivers the queued event after it returns', async () => {
    await nats.stop();
    const orchestrator = server.services.orchestrator!;
    const deadline = Date.now() + 5000;
    while ((await orchestrator.health()).status !== 'degraded' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const response = await verify({ selfie: selfieA, id_card: cardA });
    expect(response.statusCode).toBe(200);
    const eventId = response.json<VerifyBody>().event_id;
    expect(await orchestrator.health()).toMatchObject({
      status: 'degraded',
      broker: { connected: false },
      outbox: { backlog: 1 },
    });
    await nats.restart();
    const until = Date.now() + 20_000;
    while ((await orchestrator.outbox.backlog()).count > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const ids = (await readStream(nats.url)).messages.map((m) => m.msgId);
    expect(ids.filter((id) => id === eventId)).toHaveLength(1);
  });

  it('ends a stage that exceeds its timeout as TIMEOUT and answers REVIEW instead of hanging', async () => {
    const orchestrator = server.services.orchestrator!;
    await orchestrator.setConfig({
      gating: { fail_fast: true },
      stages: { liveness: { timeout_ms: 10, retries: 0 } },
    });
    const started = performance.now();
    const body = (await verify({ selfie: selfieA, id_card: cardA })).json<VerifyBody>();
    await orchestrator.setConfig({
      gating: { fail_fast: false },
      stages: { liveness: { timeout_ms: 20_000, retries: 2 } },
    });
    expect(body.stages.liveness.status).toBe('TIMEOUT');
    expect(body.stages.face_match.status).toBe('SKIPPED');
    expect(body.decision).toBe('REVIEW');
    expect(body.stages.liveness.latency_ms).toBeLessThan(1000);
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
