/**
 * bench:orchestrator: results per second through the durable outbox to NATS JetStream, and the latency publishing
 * adds. Each result commits like the verify route does (one audit row + its outbox row in one transaction), then the
 * relay publishes it. Decisions come from the orchestrator's pipeline run once on fixed stage inputs: this measures
 * the outbox and the broker, not inference (bench:face measures that).
 *
 *   npm run bench:orchestrator                       spawns its own nats-server -js on a free loopback port
 *   npm run bench:orchestrator -- --queue nats://127.0.0.1:4222   uses a running broker (or IDV_QUEUE_URL)
 *   options: --count N (burst size, default 2000), --rate R (paced results/s, default 100), --paced N (default 500)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AuditLog } from '../core/services/audit-log.js';
import { DEFAULT_CONFIG } from '../core/services/orchestrator/config.js';
import { buildVerificationEvent } from '../core/services/orchestrator/event.js';
import { runPipeline } from '../core/services/orchestrator/pipeline.js';
import {
  createOrchestratorService,
  type OrchestratorService,
} from '../core/services/orchestrator/service.js';
import { readStream } from '../core/services/outbox/jetstream-reader.js';
import { startNatsServer, type NatsTestServer } from '../core/services/outbox/nats-test-server.js';
import { Settings } from '../core/settings/settings.js';
import { openStore } from '../core/storage/open-store.js';

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const count = Number(option('count', '2000'));
const rate = Number(option('rate', '100'));
const paced = Number(option('paced', '500'));
const queueOption = option('queue', process.env.IDV_QUEUE_URL ?? '');

const nats: NatsTestServer | undefined = queueOption ? undefined : await startNatsServer();
const queueUrl = queueOption || nats!.url;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-bench-orch-'));
const store = await openStore({ dataDir });
const settings = await Settings.open(store.settings);
const audit = new AuditLog(store.audit);
const committedAt = new Map<string, number>();
const latencies: number[] = [];
let acked = 0;
let lastAck = 0;
const service: OrchestratorService = createOrchestratorService({
  outbox: store.outbox,
  settings,
  face: undefined,
  liveness: undefined,
  queueUrl,
  relay: {
    onPublished: (rows, ackedAtMs) => {
      for (const row of rows) {
        const start = committedAt.get(row.eventId);
        if (start !== undefined) latencies.push(ackedAtMs - start);
      }
      acked += rows.length;
      lastAck = ackedAtMs;
    },
  },
});
const outcome = await runPipeline(
  {
    liveness: () => Promise.resolve({ status: 'SUCCESS', score: 0.91, message: 'bench input' }),
    face_match: () => Promise.resolve({ status: 'SUCCESS', score: 0.83, message: 'bench input' }),
  },
  DEFAULT_CONFIG,
);
const modelVersions = {
  fr_feature: 'faceplugin-face-recognition-js@0.0.1',
  fr_liveness: 'faceplugin-face-recognition-js@0.0.1',
};
const commitTimes: number[] = [];

/** One result committed the way the verify route commits it; returns the event id. */
async function commitOne(n: number, nudge = true): Promise<string> {
  const event = buildVerificationEvent({
    outcome,
    config: DEFAULT_CONFIG,
    requestId: `bench-${n}`,
    reference: null,
    modelVersions,
  });
  const started = performance.now();
  await audit.append(
    {
      time: event.time,
      requestId: event.request_id,
      method: 'POST',
      route: '/docs/orchestrator/api/verify',
      keyId: null,
      authOutcome: 'bench',
      httpStatus: 200,
      resultStatus: 'SUCCESS',
      failedStep: null,
      reason: null,
      scores: JSON.stringify(event.scores),
      latencyMs: 0,
      mobileMasked: null,
      event: 'orchestrator.verification',
    },
    { outbox: [service.outboxEvent(event)] },
  );
  const done = performance.now();
  commitTimes.push(done - started);
  committedAt.set(event.id, done);
  if (nudge) service.committed();
  return event.id;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${acked} acknowledged`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

await service.start();
await until(
  async () => ((await service.health()).broker as { connected?: boolean } | undefined)?.connected === true,
  10_000,
);
console.log(
  `broker ${queueUrl}${nats ? ' (spawned nats-server -js)' : ''}; node ${process.version}; ${os.cpus().length} cores; measures the outbox and broker (no inference: one decision from fixed stage inputs, a fresh event id per result)`,
);

// Burst: commit as fast as the event loop allows (yielding so the relay runs alongside), until all are acknowledged.
const burstStart = performance.now();
for (let n = 0; n < count; n += 1) {
  await commitOne(n);
  if (n % 25 === 24) await new Promise((resolve) => setImmediate(resolve));
}
const committedBurst = performance.now();
await until(() => acked >= count, 120_000);
const burstSeconds = (lastAck - burstStart) / 1000;
const burstLatencies = [...latencies].sort((a, b) => a - b);
console.log(
  `burst   ${count} results: committed ${(count / ((committedBurst - burstStart) / 1000)).toFixed(0)}/s, ` +
    `through JetStream ${(count / burstSeconds).toFixed(0)} results/s; commit→ack p50 ${percentile(burstLatencies, 50).toFixed(1)} ms p95 ${percentile(burstLatencies, 95).toFixed(1)} ms`,
);

// Backlog drain: rows committed in one go (as after a broker outage) and how fast the relay empties the outbox.
const drainStart = acked;
// Not nudged one by one: the awaits only run microtasks, so the relay starts once every row is in.
for (let n = 0; n < count; n += 1) await commitOne(count * 2 + n, false);
service.committed();
const drainFrom = performance.now();
await until(() => acked >= drainStart + count, 120_000);
console.log(
  `drain   ${count} queued results published in ${(lastAck - drainFrom).toFixed(0)} ms: ${(count / ((lastAck - drainFrom) / 1000)).toFixed(0)} results/s`,
);

// Paced: a steady arrival rate like a busy branch server; the latency publishing adds after the commit.
latencies.length = 0;
const pacedStart = acked;
const interval = 1000 / rate;
const t0 = performance.now();
for (let n = 0; n < paced; n += 1) {
  const due = t0 + n * interval;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await commitOne(count * 3 + n);
}
await until(() => acked >= pacedStart + paced, 60_000);
const pacedLatencies = [...latencies].sort((a, b) => a - b);
const commits = [...commitTimes].sort((a, b) => a - b);
console.log(
  `paced   ${paced} results at ${rate}/s: commit→JetStream ack p50 ${percentile(pacedLatencies, 50).toFixed(2)} ms, ` +
    `p95 ${percentile(pacedLatencies, 95).toFixed(2)} ms, max ${(pacedLatencies.at(-1) ?? NaN).toFixed(2)} ms`,
);
console.log(
  `request path: audit row + outbox row transaction p50 ${percentile(commits, 50).toFixed(3)} ms, p95 ${percentile(commits, 95).toFixed(3)} ms ` +
    '(the publish itself is off the response path)',
);

const total = count * 2 + paced;
const ids = new Set((await readStream(queueUrl)).messages.map((m) => m.msgId));
const delivered = [...committedAt.keys()].filter((id) => ids.has(id)).length;
console.log(
  `delivered ${delivered}/${total} event ids found in stream IDV_EVENTS; outbox backlog ${(await service.outbox.backlog()).count}`,
);

await service.stop();
settings.close();
await store.close();
fs.rmSync(dataDir, { recursive: true, force: true });
await nats?.dispose();
