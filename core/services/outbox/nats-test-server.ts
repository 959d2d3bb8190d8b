import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A nats-server with JetStream for tests and the bench: loopback only, its own store directory, killed by `stop`. */
export interface NatsTestServer {
  url: string;
  port: number;
  storeDir: string;
  /** Stop the broker (SIGTERM, then SIGKILL after 3 s) and wait for it to exit. The store directory stays. */
  stop(): Promise<void>;
  /** Start it again on the same port and store (after `stop`). */
  restart(): Promise<void>;
  /** True while the broker process runs. */
  isRunning(): boolean;
  /** Stop and delete the store directory. */
  dispose(): Promise<void>;
}

const CANDIDATES = [
  process.env.NATS_SERVER_BIN,
  '/usr/sbin/nats-server',
  '/usr/bin/nats-server',
  '/usr/local/bin/nats-server',
];

/** Path of the nats-server binary (Debian package `nats-server` installs /usr/sbin/nats-server). */
export function natsServerBinary(): string {
  for (const candidate of CANDIDATES) if (candidate && fs.existsSync(candidate)) return candidate;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'nats-server');
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error(
    'nats-server not found: install the Debian package nats-server (apt-get install nats-server) or set NATS_SERVER_BIN.',
  );
}

/** A free loopback TCP port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

function waitReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      reject(new Error(`nats-server did not become ready: ${output.slice(-500)}`));
    }, 10_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Server is ready')) {
        clearTimeout(timer);
        child.stderr?.off('data', onData);
        // Keep draining so a full pipe never blocks the broker.
        child.stderr?.resume();
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited with ${code}: ${output.slice(-500)}`));
    });
  });
}

/** Spawn `nats-server -js` on a free loopback port with a temporary store directory. */
export async function startNatsServer(): Promise<NatsTestServer> {
  const binary = natsServerBinary();
  const port = await freePort();
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-nats-'));
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    const proc = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = proc;
    // Safety net: a test process that dies without calling stop() must not leave a broker behind.
    const reap = (): void => {
      proc.kill('SIGKILL');
    };
    process.once('exit', reap);
    proc.once('exit', () => process.off('exit', reap));
    await waitReady(proc);
  };
  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) =>
      proc.once('exit', () => {
        resolve();
      }),
    );
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };
  await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    stop,
    restart: launch,
    isRunning: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    dispose: async () => {
      await stop();
      fs.rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
