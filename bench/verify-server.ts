/**
 * The server side of `npm run bench:verify`: the production server (every engine, a fresh data directory) in its
 * own process, so the clients' work never shares its event loop. Tells its parent the URL and an API key over IPC,
 * then serves until told to stop, and tells its CPU time when asked. `--cpu-prof` given to this process profiles the server alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../core/server.js';

/** What the server tells the benchmark once it listens. */
export interface BenchServerReady {
  url: string;
  key: string;
}

/**
 * The server's CPU time so far (every thread: main, workers, onnxruntime), µs, and its peak resident memory, kB,
 * answered to a 'cpu' message.
 */
export interface BenchServerUsage {
  cpuMicros: number;
  maxRssKb: number;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-bench-verify-'));
const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'error' });
await server.services.settings.set('limits.rateLimitPerMinute', 1_000_000);
const key = (await server.services.keys.create('verify benchmark')).key;
const ready: BenchServerReady = { url: server.url.replace(/\/$/, ''), key };
process.send?.(ready);

let closing = false;
async function stop(): Promise<void> {
  if (closing) return;
  closing = true;
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  // process.exit lets --cpu-prof write its profile; the IPC channel would otherwise keep the process alive.
  process.exit(0);
}
process.on('message', (message) => {
  if (message === 'stop') void stop();
  if (message === 'cpu') {
    const { userCPUTime, systemCPUTime, maxRSS } = process.resourceUsage();
    process.send?.({ cpuMicros: userCPUTime + systemCPUTime, maxRssKb: maxRSS } satisfies BenchServerUsage);
  }
});
process.on('disconnect', () => void stop());
