import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
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

/** Which server the suites run against (`IDV_E2E_SERVER`). */
export type ServerUnderTest = 'source' | 'dist' | 'npm';

/**
 * `source` (default, what `npm test` runs): core/cli/serve.ts through tsx; `dist`: the built `dist/server.mjs` under
 * plain Node, started from another working directory, as shipped; `npm`: `npm run serve` in this checkout, which builds
 * what is missing first (a fresh clone).
 */
export function serverUnderTest(): ServerUnderTest {
  const chosen = process.env.IDV_E2E_SERVER ?? 'source';
  if (chosen === 'source' || chosen === 'dist' || chosen === 'npm') return chosen;
  throw new Error(`IDV_E2E_SERVER must be source, dist or npm, not "${chosen}".`);
}

/** The built server the `dist` mode runs. */
export const BUILT_SERVER = path.join(ROOT, 'dist', 'server.mjs');

function spawnServer(flags: string[]): ChildProcess {
  const options: SpawnOptions = {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, IDV_LOG_LEVEL: 'warn' },
  };
  switch (serverUnderTest()) {
    case 'source':
      // node --import tsx is one process (the tsx CLI would add a parent that must relay signals).
      return spawn(process.execPath, ['--import', 'tsx', 'core/cli/serve.ts', ...flags], {
        ...options,
        cwd: ROOT,
      });
    case 'dist':
      if (!fs.existsSync(BUILT_SERVER))
        throw new Error(`${BUILT_SERVER} is missing: run npm run build first.`);
      // From another working directory: the bundle finds its files from where it is, never from the cwd.
      return spawn(process.execPath, [BUILT_SERVER, ...flags], { ...options, cwd: os.tmpdir() });
    case 'npm':
      // Its own process group, so stop() ends npm and the server it runs together.
      return spawn('npm', ['run', '--silent', 'serve', '--', ...flags], {
        ...options,
        cwd: ROOT,
        detached: true,
      });
  }
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  if (serverUnderTest() === 'npm' && child.pid !== undefined) process.kill(-child.pid, name);
  else child.kill(name);
}

/**
 * Start the server under test (`serverUnderTest()`) on a free port with a fresh data directory, and wait until the
 * console API answers. `prepare` may fill the data directory before the server opens it.
 */
export async function startTestServer(
  prepare?: (dataDir: string) => void | Promise<void>,
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-e2e-'));
  await prepare?.(dataDir);
  const port = await freePort();
  const child = spawnServer([
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--data-dir',
    dataDir,
    '--log-level',
    'warn',
  ]);
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      signal(child, 'SIGTERM');
      const timer = setTimeout(() => {
        signal(child, 'SIGKILL');
      }, 10_000);
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
