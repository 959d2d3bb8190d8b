import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachOrchestrator } from '../../services/orchestrator/attach.js';
import { DEFAULT_CONFIG } from '../../services/orchestrator/config.js';
import { buildVerificationEvent } from '../../services/orchestrator/event.js';
import { runPipeline } from '../../services/orchestrator/pipeline.js';
import { startTestServer, type TestServer } from '../../testing/services.js';

// The feed's plumbing: events are recorded through the service as the verify route does (its own transaction here,
// no face engine needed); the route test with the real engine is orchestrator.test.ts.
async function recordOne(server: TestServer, requestId: string): Promise<string> {
  const outcome = await runPipeline(
    {
      liveness: () => Promise.resolve({ status: 'SUCCESS', score: 0.9, message: 'input of the feed test' }),
      face_match: () => Promise.resolve({ status: 'SUCCESS', score: 0.8, message: 'input of the feed test' }),
    },
    DEFAULT_CONFIG,
  );
  const event = buildVerificationEvent({
    outcome,
    config: DEFAULT_CONFIG,
    requestId,
    reference: null,
    modelVersions: {},
  });
  await server.services.orchestrator!.recordAndCommit(event);
  return event.id;
}

interface Page {
  events: { id: string }[];
  cursor: number;
}
const idsOf = (page: Page): string[] => page.events.map((event) => event.id);

describe('orchestrator event feed over HTTP (no broker)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await attachOrchestrator(server.services, undefined);
  });
  afterAll(async () => server.close());

  it('pages events by cursor without waiting when asked not to', async () => {
    const ids = [await recordOne(server, 'r1'), await recordOne(server, 'r2'), await recordOne(server, 'r3')];
    const first = await server.app.inject({ url: '/docs/orchestrator/api/events?after=0&limit=2&wait=0' });
    expect(first.statusCode).toBe(200);
    const page = first.json<Page>();
    expect(idsOf(page)).toEqual(ids.slice(0, 2));
    const second = (
      await server.app.inject({ url: `/docs/orchestrator/api/events?after=${page.cursor}&wait=0` })
    ).json<Page>();
    expect(idsOf(second)).toEqual(ids.slice(2));
    const empty = (
      await server.app.inject({ url: `/docs/orchestrator/api/events?after=${second.cursor}&wait=0` })
    ).json<Page>();
    expect(empty).toEqual({ events: [], cursor: second.cursor });
  });

  it('long-polls until a new event commits', async () => {
    const head = await server.services.orchestrator!.events.head();
    const started = performance.now();
    const pending = server.app.inject({ url: `/docs/orchestrator/api/events?after=${head}&wait=10` });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const id = await recordOne(server, 'long-poll');
    const page = (await pending).json<Page>();
    expect(idsOf(page)).toEqual([id]);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('answers an empty page when the wait runs out', async () => {
    const head = await server.services.orchestrator!.events.head();
    const started = performance.now();
    const page = (
      await server.app.inject({ url: `/docs/orchestrator/api/events?after=${head}&wait=1` })
    ).json<Page>();
    expect(page.events).toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('rejects a bad cursor with 400', async () => {
    const response = await server.app.inject({ url: '/docs/orchestrator/api/events?after=-3' });
    expect(response.statusCode).toBe(400);
    expect(response.json().status).toBe('ERROR');
  });

  it('streams events as SSE and resumes after Last-Event-ID', async () => {
    const address = await server.app.listen({ host: '127.0.0.1', port: 0 });
    const before = await server.services.orchestrator!.events.head();
    const first = await recordOne(server, 'sse-1');
    const controller = new AbortController();
    const response = await fetch(`${address}/docs/orchestrator/api/events/stream`, {
      headers: { 'last-event-id': String(before) },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = response.body!.getReader();
    let text = '';
    const second = await recordOne(server, 'sse-2');
    while (!text.includes(second)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value as Uint8Array);
    }
    controller.abort();
    const messages = text.split('\n\n').filter((block) => block.includes('event: verification'));
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain(`id: ${before + 1}`);
    expect(messages[0]).toContain(first);
    expect(messages[1]).toContain(second);
  });

  it('documents the event schema in the OpenAPI components', async () => {
    const doc = (await server.app.inject({ url: '/openapi.json' })).json<{
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
      paths: Record<string, unknown>;
    }>();
    const schema = doc.components.schemas.OrchestratorVerificationEvent!;
    expect(schema.properties).toHaveProperty('decision');
    expect(schema.properties).toHaveProperty('model_versions');
    expect(Object.keys(schema.properties)).not.toContain('selfie');
    expect(doc.paths).toHaveProperty(['/docs/orchestrator/api/events/stream']);
  });
});
