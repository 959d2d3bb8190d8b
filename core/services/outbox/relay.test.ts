import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxRepository } from '../../contracts/outbox-repository.js';
import { markUnpublished } from '../../storage/sqlite/testing.js';
import { tempStore, type TempStore } from '../../testing/store.js';
import { sleep } from './backoff.js';
import { startBrokerLink, type BrokerLink } from './broker-link.js';
import { readStream } from './jetstream-reader.js';
import { startNatsServer, type NatsTestServer } from './nats-test-server.js';

const FAST = { backoff: { initialMs: 50, multiplier: 2, maxMs: 400 }, idlePollMs: 500 };
let nats: NatsTestServer;
let temp: TempStore;
let outbox: OutboxRepository;
let link: BrokerLink | undefined;

beforeAll(async () => {
  nats = await startNatsServer();
});
afterAll(async () => {
  await (nats as NatsTestServer | undefined)?.dispose();
});
afterEach(async () => {
  if (!nats.isRunning()) await nats.restart();
  await link?.stop();
  link = undefined;
  await temp.dispose();
});

async function freshStore(): Promise<void> {
  temp = await tempStore('idv-outbox-');
  outbox = temp.store.outbox;
}

/** Commit events one at a time (as the audit hook does) and nudge the relay. */
async function commit(count: number, kind: string): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const id = randomUUID();
    await outbox.add({ id, subject: 'idv.events.test.relay', payload: { id, kind, n } });
    link?.relay.nudge();
    ids.push(id);
  }
  return ids;
}

const drained = async (): Promise<boolean> => (await outbox.backlog()).count === 0;

async function unpublishedIds(): Promise<string[]> {
  return (await outbox.after(0, 100)).filter((row) => row.publishedAt === null).map((row) => row.eventId);
}

async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function deliveredIds(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const message of (await readStream(nats.url)).messages) {
    expect(message.msgId).toBe(message.payload.id);
    counts.set(String(message.payload.id), (counts.get(String(message.payload.id)) ?? 0) + 1);
  }
  return counts;
}

describe('outbox relay to NATS JetStream', () => {
  it('delivers committed events with the event id as msgID', async () => {
    await freshStore();
    link = startBrokerLink(outbox, nats.url, FAST);
    const ids = await commit(5, 'basic');
    await until(drained, 10_000, 'the relay to drain');
    const delivered = await deliveredIds();
    for (const id of ids) expect(delivered.get(id)).toBe(1);
    expect(await unpublishedIds()).toEqual([]);
  });

  it('queues while the broker is down and delivers every event after it restarts', async () => {
    await freshStore();
    link = startBrokerLink(outbox, nats.url, FAST);
    const before = await commit(3, 'before-outage');
    await until(drained, 10_000, 'the first events');
    await nats.stop();
    await until(() => !link!.publisher.isConnected(), 5000, 'the client to notice the outage');
    const during = await commit(5, 'during-outage');
    await sleep(800);
    expect((await outbox.backlog()).count).toBe(5);
    expect(link.relay.stats().state).toBe('backing-off');
    await nats.restart();
    await until(drained, 20_000, 'the backlog to drain after the restart');
    const delivered = await deliveredIds();
    // None lost; a re-send keeps its id, and JetStream's msgID window keeps it to one copy.
    for (const id of [...before, ...during]) expect(delivered.get(id)).toBe(1);
  });

  it('drops a re-send of an acknowledged event as a duplicate (crash after ack, before marking)', async () => {
    await freshStore();
    link = startBrokerLink(outbox, nats.url, FAST);
    const [id] = await commit(1, 'resend');
    await until(drained, 10_000, 'the first publish');
    // What a crash between the broker's ack and the UPDATE leaves behind: the row still unpublished.
    markUnpublished(temp.store, id!);
    link.relay.nudge();
    await until(drained, 10_000, 'the re-send');
    expect(link.relay.stats().duplicates).toBe(1);
    expect((await deliveredIds()).get(id!)).toBe(1);
  });

  it('delivers an event whose process was SIGKILLed between commit and publish, after restart', async () => {
    await freshStore();
    const dataDir = temp.dataDir;
    const script = fileURLToPath(new URL('./testdata/commit-then-sigkill.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, nats.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, sig) => {
        resolve(sig);
      }),
    );
    expect(signal, errors).toBe('SIGKILL');
    const id = output.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await unpublishedIds()).toEqual([id]);
    expect((await deliveredIds()).has(id)).toBe(false);
    link = startBrokerLink(outbox, nats.url, FAST);
    await until(drained, 10_000, 'the restarted relay');
    expect((await deliveredIds()).get(id)).toBe(1);
  });

  it('stops promptly while the broker is unreachable', async () => {
    await freshStore();
    const deadUrl = `nats://127.0.0.1:${nats.port + 1}`;
    link = startBrokerLink(outbox, deadUrl, {
      ...FAST,
      backoff: { initialMs: 5000, multiplier: 1, maxMs: 5000 },
    });
    await commit(1, 'unreachable');
    await until(() => link!.relay.stats().state === 'backing-off', 5000, 'a failed connect');
    const started = performance.now();
    await link.stop();
    link = undefined;
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await outbox.backlog()).count).toBe(1);
  });
});
