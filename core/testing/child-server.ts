import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { appBase as projectRoot } from '../assets/assets.js';

/** A reliability-server process (core/testing/reliability-server.ts) driven by a test. */
export interface ChildServer {
  url: string;
  process: ChildProcess;
  /** Send a stdin command and resolve with the first output line starting with `answer`. */
  ask(command: string, answer: string): Promise<string>;
  /** SIGKILL, and resolve once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM, and resolve once it is gone. */
  stop(): Promise<void>;
  /** The last 4000 characters the child wrote to stderr (for a failing test's message). */
  stderr(): string;
}

/** How to start a child server. */
export interface ChildServerOptions {
  dataDir: string;
  /** Put the data directory on a tmpfs of this many MiB of its own (a real, small filesystem). */
  tmpfsMb?: number;
  /** `fill` caps the database's pages instead of filling a filesystem (the full disk simulated). */
  simulateFull?: boolean;
}

/**
 * True when this machine lets the test mount a tmpfs in a private mount namespace (`unshare -rm`, no root needed
 * where user namespaces are allowed); where it does not, the full-disk test says so and simulates the full disk.
 */
export function canMountTmpfs(): boolean {
  const probe = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs /tmp && echo ok'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  return probe.status === 0 && probe.stdout.trim() === 'ok';
}

/** Start the reliability server; resolves once it listens. */
export function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const entry = path.join(projectRoot, 'core/testing/reliability-server.ts');
  const nodeArgs = ['--import', 'tsx', entry, '--data-dir', options.dataDir];
  if (options.simulateFull) nodeArgs.push('--simulate-full');
  const quoted = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;
  const child =
    options.tmpfsMb === undefined
      ? spawn(process.execPath, nodeArgs, { cwd: projectRoot, stdio: ['pipe', 'pipe', 'pipe'] })
      : spawn(
          'unshare',
          [
            '-rm',
            'sh',
            '-c',
            `mount -t tmpfs -o size=${options.tmpfsMb}m tmpfs ${quoted(options.dataDir)} && exec ${[process.execPath, ...nodeArgs].map(quoted).join(' ')}`,
          ],
          { cwd: projectRoot, stdio: ['pipe', 'pipe', 'pipe'] },
        );
  const waiting: { prefix: string; resolve(line: string): void; reject(error: Error): void }[] = [];
  let buffered = '';
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString('utf8')).slice(-4000);
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const index = waiting.findIndex((w) => line.startsWith(w.prefix));
      if (index >= 0) waiting.splice(index, 1)[0]!.resolve(line);
    }
  });
  child.once('exit', (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`the child server exited (${code}): ${errors}`));
  });
  const next = (prefix: string): Promise<string> =>
    new Promise((resolve, reject) => {
      waiting.push({ prefix, resolve, reject });
    });
  const gone = (): Promise<void> =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => {
          child.once('exit', () => {
            resolve();
          });
        });
  return next('listening ').then((line) => ({
    url: line.slice('listening '.length),
    process: child,
    ask: (command, answer) => {
      const reply = next(answer);
      child.stdin?.write(`${command}\n`);
      return reply.then((l) => l.slice(answer.length).trim());
    },
    kill: () => {
      const done = gone();
      child.kill('SIGKILL');
      return done;
    },
    stop: () => {
      const done = gone();
      child.kill('SIGTERM');
      return done;
    },
    stderr: () => errors,
  }));
}
