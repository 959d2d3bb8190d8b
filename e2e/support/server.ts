import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './paths.js';

/** A headless server started for one spec file. */
export interface TestServer {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:41234. */
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else
      child.once('exit', () => {
        resolve();
      });
  });
}

/**
 * Start `core/cli/serve.ts` (what `npm run serve` runs) on a free port with a fresh data directory, and wait
 * until the console API answers. `prepare` may fill the data directory before the server opens it.
 */
export async function startTestServer(
  prepare?: (dataDir: string) => void | Promise<void>,
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-e2e-'));
  await prepare?.(dataDir);
  const port = await freePort();
  // node --import tsx is one process (the tsx CLI would add a parent that must relay signals).
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'core/cli/serve.ts',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--data-dir',
      dataDir,
      '--log-level',
      'warn',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, IDV_LOG_LEVEL: 'warn' } },
  );
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server exited during start (code ${child.exitCode}):\n${output}`);
    }
    try {
      const response = await fetch(`${url}/api/console/setup-state`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer within 180 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, port, dataDir, stop };
}
