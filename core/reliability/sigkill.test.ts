import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeGrayPng, syntheticFingerprint } from '../fingerprint/synthetic/index.js';
import { startChildServer, type ChildServer } from '../testing/child-server.js';
import { buildMultipart } from '../testing/multipart.js';

const number = (i: number): string => `+4479222${String(10000 + i).padStart(5, '0')}`;

/** One enrollment; true once the server acknowledged it (200), false when it answered otherwise or died. */
async function enroll(server: ChildServer, i: number): Promise<boolean> {
  const { body, contentType } = buildMultipart([
    { name: 'mobile_number', value: number(i) },
    {
      name: 'file',
      filename: 'p.png',
      contentType: 'image/png',
      data: encodeGrayPng(syntheticFingerprint(7000 + i, 0), 500),
    },
  ]);
  try {
    const res = await fetch(`${server.url}/v2/enroll-fp`, {
      method: 'POST',
      // A connection each: no keep-alive race with the server's idle timeout while the machine is loaded.
      headers: { 'content-type': contentType, connection: 'close' },
      body,
    });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

describe('SIGKILL during concurrent enrollments (real child process)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-kill-'));
  const servers: ChildServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('keeps every acknowledged enrollment and a valid audit chain after a restart', async () => {
    const dataDir = path.join(root, 'data');
    fs.mkdirSync(dataDir);
    const first = await startChildServer({ dataDir });
    servers.push(first);
    const acknowledged: number[] = [];
    let killed = false;
    // Eight clients enroll distinct numbers; the server is killed once a dozen are acknowledged, mid-flight.
    const client = async (start: number): Promise<void> => {
      for (let i = start; i < 200 && !killed; i += 8) {
        if (await enroll(first, i)) acknowledged.push(i);
        if (acknowledged.length >= 12 && !killed) {
          killed = true;
          await first.kill();
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, k) => client(k)));
    expect(killed).toBe(true);

    const second = await startChildServer({ dataDir });
    servers.push(second);
    const report = JSON.parse(await second.ask('report', 'report ')) as {
      enrollments: number;
      chain: { ok: boolean };
    };
    console.info(`acknowledged before SIGKILL: ${acknowledged.length}; stored: ${report.enrollments}`);
    expect(report.chain.ok).toBe(true);
    expect(report.enrollments).toBeGreaterThanOrEqual(acknowledged.length);
    for (const i of acknowledged) expect(await second.ask(`has ${number(i)}`, 'has ')).toBe('yes');
    // The restarted server still enrolls.
    expect(await enroll(second, 500)).toBe(true);
  }, 180_000);
});
