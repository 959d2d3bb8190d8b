import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { appBase as projectRoot } from '../../core/assets/assets.js';

/** A server started by the benchmark (`npm run serve` in a child process) or one already running. */
export interface ServerUnderLoad {
  url: string;
  /** Process id whose memory is sampled. */
  pid: number;
  stop(): Promise<void>;
}

/** Start `core/cli/serve.ts` on a free port over `dataDir`; resolves once it listens. */
export function startServeProcess(dataDir: string, extraArgs: string[] = []): Promise<ServerUnderLoad> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(projectRoot, 'core/cli/serve.ts'),
      '--data-dir',
      dataDir,
      '--port',
      '0',
      '--log-level',
      'warn',
      ...extraArgs,
    ],
    { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+?)\/? \(/.exec(out);
      if (!match) return;
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      resolve({
        url: match[1]!.replace(/\/$/, ''),
        pid: child.pid!,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => {
              done();
            });
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      reject(new Error(`the server exited (${code}) before listening: ${out.slice(-400)}`));
    });
  });
}

/** Resident set size of a process and its peak so far, bytes (Linux /proc; 0 elsewhere). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string): number =>
      Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** Reset the kernel's peak-RSS mark of a process (Linux, own processes); false when not allowed. */
export function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
