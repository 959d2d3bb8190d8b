import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCoreError } from '../errors.js';
import { Settings } from '../settings/settings.js';
import { openPostgresStore, type PostgresStore } from '../storage/postgres/postgres-store.js';
import {
  postgresUnavailable,
  startTestPostgres,
  type TestPostgres,
} from '../storage/postgres/test-server.js';
import { FingerprintService } from './service.js';
import { syntheticUpload } from './synthetic/index.js';

const ALICE = '+447911123456';
const BOB = '+447911654321';
const skip = postgresUnavailable();

/** Wait until `check` holds, checking every 20 ms; fails naming `what` after `ms`. */
async function within(ms: number, check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
if (skip) console.warn(`Shared-store index tests skipped: ${skip}`);

/** One replica: its own store handle, settings and engine on the shared database. */
interface Replica {
  store: PostgresStore;
  settings: Settings;
  engine: FingerprintService;
  close(): Promise<void>;
}

describe.skipIf(skip)('in-memory 1:N index of replicas on one PostgreSQL store', () => {
  let server: TestPostgres;
  let url = '';
  const key = randomBytes(32);
  const replicas: Replica[] = [];
  const replica = async (): Promise<Replica> => {
    const store = await openPostgresStore(url);
    const settings = await Settings.open(store.settings);
    const engine = new FingerprintService({
      enrollments: store.enrollments,
      templateKey: key,
      settings,
      pool: { size: 0 },
      followChanges: true,
    });
    await engine.indexLoaded();
    const r = {
      store,
      settings,
      engine,
      close: async () => {
        await engine.close();
        settings.close();
        await store.close();
      },
    };
    replicas.push(r);
    return r;
  };
  const held = async (r: Replica): Promise<number> => Number((await r.engine.health()).indexed_in_memory);
  let a: Replica;
  let b: Replica;

  beforeAll(async () => {
    server = await startTestPostgres();
    url = await server.createDatabase();
    a = await replica();
    b = await replica();
    await a.settings.setMany({ 'fingerprint.thresholdOneInN': 100, 'fingerprint.dedupOneInN': 100 });
  }, 60_000);
  afterAll(async () => {
    for (const r of replicas) await r.close();
    server.destroy();
  });

  it("applies another replica's enrollment within 2 s, then finds and de-duplicates against it", async () => {
    await a.engine.enroll(ALICE, syntheticUpload(101, 0), { requestId: 't' });
    await within(2000, async () => (await held(b)) === 1, 'B to hold the enrollment');
    const found = await b.engine.search(syntheticUpload(101, 1));
    expect(found.candidates[0]?.mobile).toBe(ALICE);
    expect(found.gallery_size).toBe(1);
    const duplicate = await b.engine.enroll(BOB, syntheticUpload(101, 2), { requestId: 't' });
    expect(duplicate.duplicate_of).toBe('+4479*****456');
  });

  it('drops a deletion and takes in a re-enrollment made at another replica', async () => {
    await a.engine.deleteEnrollment(BOB);
    await a.engine.enroll(ALICE, syntheticUpload(202, 0), { requestId: 't' });
    await within(2000, async () => (await held(b)) === 1, 'B to drop the deleted enrollment');
    expect((await b.engine.search(syntheticUpload(202, 1))).candidates[0]?.mobile).toBe(ALICE);
    const old = await b.engine.search(syntheticUpload(101, 1));
    expect(old.candidates.every((c) => c.score < b.engine.threshold())).toBe(true);
  });

  it('catches up after its notice connection was cut, and a new replica rebuilds the index', async () => {
    // Cut every LISTEN connection from the server side: notices sent meanwhile are lost to them.
    await server.cutListeners(url);
    await a.engine.enroll(BOB, syntheticUpload(303, 0), { requestId: 't' });
    await within(2000, async () => (await held(b)) === 2, 'B to follow without notices');
    const c = await replica();
    expect(await held(c)).toBe(2);
    expect((await c.engine.search(syntheticUpload(303, 1))).candidates[0]?.mobile).toBe(BOB);
  });

  it('answers STORE_UNAVAILABLE while the database is down and recovers by itself when it returns', async () => {
    server.stop();
    const failure = await b.engine.search(syntheticUpload(303, 1)).catch((error: unknown) => error);
    expect(isCoreError(failure) && failure.code).toBe('STORE_UNAVAILABLE');
    expect((await b.store.health()).reachable).toBe(false);
    server.start();
    expect((await b.engine.search(syntheticUpload(303, 1))).candidates[0]?.mobile).toBe(BOB);
    await a.engine.deleteEnrollment(BOB);
    await within(5000, async () => (await held(b)) === 1, 'B to follow after the restart');
    expect((await b.store.health()).reachable).toBe(true);
  }, 60_000);
});
