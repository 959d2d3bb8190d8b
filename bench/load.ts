/**
 * `npm run bench:load -- [--duration S] [--connections 8,16,32] [--routes a,b] [--near-limit] [--settle S]
 *   [--url URL --pid PID] [--json]`
 *
 * Load on the heavy routes with autocannon (verify-fp, match-faces, v1-verify, v2-verify, each at every connection
 * count), against a server it starts itself (`core/cli/serve.ts` in a child process, fresh data dir) or one already
 * running (`--url` and `--pid`, same machine). Per run: answers/s, successes/s (HTTP 200), p50/p95/p99 of the
 * successes' latency, status counts, the peak RSS of the server and the slowest health probe (a probe every 100 ms
 * beside the load). `--near-limit` sends three images just under the 40-megapixel limit instead of ordinary ones.
 * At the end, after `--settle` seconds (default 60) of quiet, the RSS against the one before the load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Settings } from '../core/settings/settings.js';
import { openSqliteStore } from '../core/storage/sqlite/sqlite-store.js';
import { enrollment, nearLimitImages, ordinaryImages, requests, type LoadRequest } from './load/payloads.js';
import { quantile, startProbe } from './load/probe.js';
import { memoryOf, resetPeak, startServeProcess, type ServerUnderLoad } from './load/server-process.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const duration = Number(flag('duration') ?? '20');
const connectionCounts = (flag('connections') ?? '8,16,32').split(',').map(Number);
const routeNames = (flag('routes') ?? 'verify-fp,match-faces,v1-verify,v2-verify').split(',');
const settleSeconds = Number(flag('settle') ?? '60');
const nearLimit = args.includes('--near-limit');
const json = args.includes('--json');
const log = (line: string): void => {
  (json ? process.stderr : process.stdout).write(`${line}\n`);
};

/** Open the store of a fresh data dir and lift the per-caller rate limit (the load comes from one address). */
async function prepareDataDir(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-load-'));
  const store = openSqliteStore(dataDir);
  const settings = await Settings.open(store.settings);
  await settings.set('limits.rateLimitPerMinute', 1_000_000_000);
  settings.close();
  await store.close();
  return dataDir;
}

async function send(url: string, request: LoadRequest): Promise<number> {
  const res = await fetch(`${url}${request.path}`, {
    method: 'POST',
    headers: { 'content-type': request.contentType },
    body: request.body,
  });
  await res.arrayBuffer();
  return res.status;
}

interface RunResult {
  route: string;
  connections: number;
  seconds: number;
  answers: number;
  successes: number;
  statuses: Record<string, number>;
  latency: { p50: number; p95: number; p99: number };
  retryAfterMissing: number;
  peakRssMb: number;
  health: { p99: number; max: number; failures: number };
}

async function runOne(
  server: ServerUnderLoad,
  route: string,
  request: LoadRequest,
  connections: number,
): Promise<RunResult> {
  const peakResettable = resetPeak(server.pid);
  const probe = startProbe(server.url, server.pid);
  const successLatencies: number[] = [];
  const statuses: Record<string, number> = {};
  let retryAfterMissing = 0;
  const started = performance.now();
  let finished: (result: autocannon.Result) => void = () => undefined;
  let failed: (error: unknown) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = resolve;
    failed = reject;
  });
  const instance = autocannon(
    {
      url: `${server.url}${request.path}`,
      method: 'POST',
      headers: { 'content-type': request.contentType },
      body: request.body,
      connections,
      duration,
      timeout: 120,
      // Headers of each answer: a 503 must say when to come back.
      setupClient: (client) => {
        client.on('headers', (raw) => {
          const head = raw as unknown as { statusCode: number; headers: string[] };
          const names = head.headers.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase());
          if (head.statusCode === 503 && !names.includes('retry-after')) retryAfterMissing++;
        });
      },
    },
    (error: Error | null, result: autocannon.Result) => {
      if (error) failed(error);
      else finished(result);
    },
  );
  instance.on('response', (_client, statusCode: number, _bytes: number, responseTime: number) => {
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    if (statusCode === 200) successLatencies.push(responseTime);
  });
  const result = await done;
  const seconds = (performance.now() - started) / 1000;
  const report = await probe.stop();
  for (const [code, stats] of Object.entries(
    result.statusCodeStats as unknown as Record<string, { count: number }>,
  ))
    statuses[code] = Math.max(statuses[code] ?? 0, stats.count);
  const answers = Object.values(statuses).reduce((a, b) => a + b, 0);
  const peak = peakResettable ? memoryOf(server.pid).peak : report.maxRss;
  return {
    route,
    connections,
    seconds: Math.round(seconds),
    answers,
    successes: successLatencies.length,
    statuses,
    latency: {
      p50: Math.round(quantile(successLatencies, 0.5)),
      p95: Math.round(quantile(successLatencies, 0.95)),
      p99: Math.round(quantile(successLatencies, 0.99)),
    },
    retryAfterMissing,
    peakRssMb: Math.round(Math.max(peak, report.maxRss) / 2 ** 20),
    health: {
      p99: Math.round(quantile(report.health, 0.99)),
      max: Math.round(Math.max(0, ...report.health)),
      failures: report.healthFailures,
    },
  };
}

function line(r: RunResult): string {
  const statuses = Object.entries(r.statuses)
    .map(([code, n]) => `${code}×${n}`)
    .join(' ');
  return (
    `${r.route.padEnd(12)} ${String(r.connections).padStart(3)} conn  ` +
    `${(r.answers / r.seconds).toFixed(1).padStart(6)} answers/s ${(r.successes / r.seconds).toFixed(1).padStart(6)} successes/s  ` +
    `p50 ${String(r.latency.p50).padStart(5)}  p95 ${String(r.latency.p95).padStart(5)}  p99 ${String(r.latency.p99).padStart(5)} ms  ` +
    `peak RSS ${String(r.peakRssMb).padStart(5)} MB  health p99 ${r.health.p99} max ${r.health.max} ms` +
    `${r.health.failures ? ` (${r.health.failures} failed)` : ''}  ${statuses}` +
    (r.retryAfterMissing ? `  (${r.retryAfterMissing} 503 without Retry-After)` : '')
  );
}

async function main(): Promise<void> {
  const given = flag('url');
  const dataDir = given ? undefined : await prepareDataDir();
  const server: ServerUnderLoad = given
    ? { url: given.replace(/\/$/, ''), pid: Number(flag('pid')), stop: () => Promise.resolve() }
    : await startServeProcess(dataDir!);
  try {
    const small = await ordinaryImages();
    const images = nearLimit ? await nearLimitImages(small) : small;
    const bodies = requests(images);
    const enrolled = await send(server.url, enrollment(small.enrolled));
    if (enrolled !== 200) throw new Error(`the enrollment the load verifies against answered ${enrolled}`);
    // Every route once before measuring: lazy loads (tesseract, first model calls) are not the load's.
    for (const name of routeNames) await send(server.url, bodies[name]!);
    const load = os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ');
    const before = memoryOf(server.pid).rss;
    log(
      `${os.cpus().length} cores, load average ${load}; ${duration} s per run; ${nearLimit ? 'near-limit (39.9 MP) images' : 'ordinary images'}; RSS before ${Math.round(before / 2 ** 20)} MB`,
    );
    const results: RunResult[] = [];
    for (const name of routeNames) {
      const request = bodies[name];
      if (!request) throw new Error(`unknown route ${name}; known: ${Object.keys(bodies).join(', ')}`);
      for (const connections of connectionCounts) {
        const r = await runOne(server, name, request, connections);
        results.push(r);
        log(line(r));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
    const after = memoryOf(server.pid).rss;
    log(
      `RSS ${settleSeconds} s after the load: ${Math.round(after / 2 ** 20)} MB (${(((after - before) / before) * 100).toFixed(1)}% against before); load average ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
    if (json)
      process.stdout.write(
        `${JSON.stringify({ results, rssBeforeMb: before / 2 ** 20, rssAfterMb: after / 2 ** 20 })}\n`,
      );
  } finally {
    await server.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
