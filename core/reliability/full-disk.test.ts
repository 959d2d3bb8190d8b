import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeGrayPng, syntheticFingerprint } from '../fingerprint/synthetic/index.js';
import { canMountTmpfs, startChildServer, type ChildServer } from '../testing/child-server.js';
import { buildMultipart } from '../testing/multipart.js';

const number = (i: number): string => `+4479111${String(50000 + i).padStart(5, '0')}`;

async function enroll(
  server: ChildServer,
  i: number,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { body, contentType } = buildMultipart([
    { name: 'mobile_number', value: number(i) },
    {
      name: 'file',
      filename: 'p.png',
      contentType: 'image/png',
      data: encodeGrayPng(syntheticFingerprint(9000 + i, 0), 500),
    },
  ]);
  const res = await fetch(`${server.url}/v2/enroll-fp`, {
    method: 'POST',
    // A connection each: no keep-alive race with the server's idle timeout while the machine is loaded.
    headers: { 'content-type': contentType, connection: 'close' },
    body,
  }).catch((error: unknown) => {
    throw new Error(`enrollment ${i} got no answer (${String(error)}); the server said: ${server.stderr()}`);
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

interface Report {
  enrollments: number;
  enrolledRows: { mobile: string; requestId: string }[];
  chain: { ok: boolean };
}

describe('a full disk under the data directory (real child process)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-full-'));
  let server: ChildServer | undefined;
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('answers 503 with nothing half-written, and enrolls again once there is room', async () => {
    const real = canMountTmpfs();
    const dataDir = path.join(root, 'data');
    fs.mkdirSync(dataDir);
    // A real 32 MiB tmpfs; where none can be mounted, SQLite's page cap instead.
    server = await startChildServer(real ? { dataDir, tmpfsMb: 32 } : { dataDir, simulateFull: true });
    console.info(`full disk: ${real ? 'a real tmpfs of 32 MiB' : 'simulated with SQLite max_page_count'}`);
    const acknowledged: number[] = [];
    // The first enrollment allocates the vector index's first chunk (1 MiB); then the disk fills to its last 256 KiB.
    expect((await enroll(server, 1000)).status).toBe(200);
    acknowledged.push(1000);
    await server.ask('fill 256', 'filled');
    const statuses: number[] = [];
    let refusedInARow = 0;
    for (let i = 0; i < 120 && refusedInARow < 3; i++) {
      const answer = await enroll(server, i);
      statuses.push(answer.status);
      if (answer.status === 200) {
        acknowledged.push(i);
        refusedInARow = 0;
      } else {
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject({ status: 'ERROR', code: 'STORE_UNAVAILABLE' });
        refusedInARow++;
      }
    }
    console.info(`enrollments on a filling disk: ${statuses.join(' ')}`);
    expect(refusedInARow).toBe(3);

    const check = async (): Promise<void> => {
      const report = JSON.parse(await server!.ask('report', 'report ')) as Report;
      // Every acknowledged enrollment is stored with its audit row, and nothing else is: no half of a write.
      expect(report.enrollments).toBe(acknowledged.length);
      expect(report.enrolledRows).toHaveLength(acknowledged.length);
      expect(report.chain.ok).toBe(true);
      for (const i of acknowledged) expect(await server!.ask(`has ${number(i)}`, 'has ')).toBe('yes');
    };
    await check();

    await server.ask('free', 'freed');
    const again = await enroll(server, 500);
    expect(again.status).toBe(200);
    acknowledged.push(500);
    await check();
  }, 180_000);
});
