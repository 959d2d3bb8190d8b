/**
 * npm run bench:verify [-- --mode all|v2|v1|health] [--requests N] [--card FILE] [--seconds S] [--profile DIR]
 *   [--server-args "NODE OPTIONS"]
 *
 * End to end over HTTP against the production server in its own process (bench/verify-server.ts):
 * - v2: /v2/verify (print + selfie + passport with an MRZ, bench/verify-inputs.ts) at 1 and at 4 clients:
 *   p50 / p95 / max, verifications per second, each step's ms (the Server-Timing header), and the server's CPU
 *   time per verification (all its threads), which bounds the rate the machine's cores allow, and the server's
 *   peak resident memory.
 * - v1: /v1/verify once over every MRZ document of ../shared's passports-ids (a rendered card without it), then
 *   over images without any feature: p50 / p95 / max and how many passed.
 * - health: the OCR sub-service's health polled while 8 clients load /v1/verify: p50 / p95 / max, 503s.
 * `--profile DIR` writes the server's --cpu-prof profiles (main thread and each worker) to DIR. `--server-args`
 * passes Node and V8 options to the server process (e.g. `--trace-gc`, which prints every isolate's collections).
 * Writes nothing tracked. Timings depend on the machine's load: the load average is printed with each figure.
 */
import { fork } from 'node:child_process';
import os from 'node:os';
import { renderIdCard } from '../core/document/render/render-card.js';
import { buildMultipart, type FormPart } from '../core/testing/multipart.js';
import type { BenchServerUsage, BenchServerReady } from './verify-server.js';
import { mrzDocuments, noFeatureImages, verifyInputs, type NamedImage } from './verify-inputs.js';
import { percentile, serverTimings, stepsOf, summary, type Sample } from './verify-stats.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const mode = flag('mode') ?? 'all';
const requests = Number(flag('requests') ?? 20);
const seconds = Number(flag('seconds') ?? 20);
const load = (): string => `load ${os.loadavg()[0]!.toFixed(2)}`;

const profileDir = flag('profile');
const serverArgs = (flag('server-args') ?? '').split(' ').filter(Boolean);
const child = fork(new URL('./verify-server.ts', import.meta.url), [], {
  execArgv: [
    '--import',
    'tsx',
    ...serverArgs,
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
  ],
});
const ready = await new Promise<BenchServerReady>((resolve, reject) => {
  child.once('message', (m) => {
    resolve(m as BenchServerReady);
  });
  child.once('exit', (code) => {
    reject(new Error(`The benchmark server exited (${String(code)}) before listening.`));
  });
});
const { url, key } = ready;

/** The server's CPU time so far (all its threads) and its peak resident memory. */
function serverUsage(): Promise<BenchServerUsage> {
  return new Promise((resolve) => {
    const listen = (m: unknown): void => {
      if (typeof m === 'object' && m !== null && 'cpuMicros' in m) {
        child.off('message', listen);
        resolve(m as BenchServerUsage);
      }
    };
    child.on('message', listen);
    child.send('cpu');
  });
}

/** The server's CPU time so far, ms (all its threads). */
async function serverCpuMs(): Promise<number> {
  return (await serverUsage()).cpuMicros / 1000;
}

/** Server CPU per request over a phase, and the rate it would allow with every core busy. */
function cpuPerRequest(cpuMs: number, count: number): string {
  const each = cpuMs / count;
  return `server CPU ${each.toFixed(0)} ms a request (at most ${((os.cpus().length * 1000) / each).toFixed(1)}/s on ${os.cpus().length} cores)`;
}

async function post(route: string, parts: FormPart[]): Promise<Sample> {
  const { body, contentType } = buildMultipart(parts);
  const started = performance.now();
  const res = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-api-key': key },
    body,
  });
  const json = (await res.json()) as Record<string, unknown>;
  return {
    ms: performance.now() - started,
    status: res.status,
    body: json,
    steps: serverTimings(res.headers.get('server-timing')),
  };
}

const file = (name: string, image: NamedImage): FormPart => ({
  name,
  filename: image.name,
  data: image.data,
});

async function faceOf(
  image: Buffer,
): Promise<{ x: number; y: number; width: number; height: number } | null> {
  const res = await fetch(`${url}/docs/face-matching/api/quality`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ image: image.toString('base64') }),
  });
  return (
    ((await res.json()) as { face?: { x: number; y: number; width: number; height: number } }).face ?? null
  );
}

/** Run `clients` loops of `task` until `count` tasks have run; the samples in completion order. */
async function clientsLoop<T>(clients: number, count: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) out.push(await task(next++));
    }),
  );
  return out;
}

async function benchV2(): Promise<void> {
  const inputs = await verifyInputs(faceOf, flag('card'));
  const mobile = '+447911123456';
  const enrolled = await post('/v2/enroll-fp', [
    { name: 'mobile_number', value: mobile },
    file('file', inputs.enrolled),
  ]);
  if (enrolled.body.status !== 'SUCCESS')
    throw new Error(`Enrolment failed: ${JSON.stringify(enrolled.body)}`);
  const parts: FormPart[] = [
    { name: 'mobile_number', value: mobile },
    file('fingerprint', inputs.print),
    file('selfie', inputs.selfie),
    file('id_card', inputs.card),
  ];
  console.log(`/v2/verify inputs: ${inputs.source}`);
  const first = await post('/v2/verify', parts);
  console.log(
    `  first answer ${first.status} ${JSON.stringify(first.body.status)} in ${first.ms.toFixed(0)} ms`,
  );
  if (first.body.status !== 'SUCCESS') console.log(`  ${JSON.stringify(first.body).slice(0, 400)}`);
  for (const clients of [1, 4]) {
    const count = requests * clients;
    const started = performance.now();
    const cpuBefore = await serverCpuMs();
    const samples = await clientsLoop(clients, count, () => post('/v2/verify', parts));
    const rate = (samples.length / (performance.now() - started)) * 1000;
    const cpu = cpuPerRequest((await serverCpuMs()) - cpuBefore, count);
    console.log(
      `/v2/verify, ${clients} client(s), ${count} requests: ${summary(samples)}, ${rate.toFixed(2)}/s, ${cpu}, ${load()}`,
    );
  }
  console.log(`  server peak RSS ${((await serverUsage()).maxRssKb / 1024).toFixed(0)} MB`);
}

async function benchV1(): Promise<void> {
  let documents = mrzDocuments();
  if (documents.length === 0)
    documents = [{ name: 'rendered TD1 card', data: await renderIdCard({ person: 0 }) }];
  const read = (image: NamedImage) => post('/v1/verify', [file('id_card', image)]);
  await read(documents[0]!);
  const samples: Sample[] = [];
  for (const document of documents) samples.push(await read(document));
  console.log(`/v1/verify over ${documents.length} MRZ documents: ${summary(samples)}, ${load()}`);
  const slow = samples
    .map((s, i) => ({ s, name: documents[i]!.name }))
    .sort((a, b) => b.s.ms - a.s.ms)
    .slice(0, 3);
  for (const x of slow) console.log(`  slow: ${x.name} ${x.s.ms.toFixed(0)} ms (${stepsOf(x.s)})`);
  const none = await noFeatureImages();
  const nonePass: Sample[] = [];
  for (const image of none) nonePass.push(await read(image));
  console.log(`/v1/verify over ${none.length} images without a feature: ${summary(nonePass)}, ${load()}`);
  for (const [i, s] of nonePass.entries())
    console.log(
      `  ${none[i]!.name}: ${s.status} ${String(s.body.status)} ${s.ms.toFixed(0)} ms (${stepsOf(s)})`,
    );
}

async function benchHealth(): Promise<void> {
  let documents = mrzDocuments();
  if (documents.length === 0)
    documents = [{ name: 'rendered TD1 card', data: await renderIdCard({ person: 0 }) }];
  let stop = false;
  const statuses = new Map<number, number>();
  const loaders = Array.from({ length: 8 }, async (_, c) => {
    for (let i = c; !stop; i++) {
      const s = await post('/v1/verify', [file('id_card', documents[i % documents.length]!)]);
      statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);
    }
  });
  const health: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    await (await fetch(`${url}/docs/ocr/api/health`)).arrayBuffer();
    health.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 100));
  }
  stop = true;
  await Promise.all(loaders);
  const codes = [...statuses].map(([code, n]) => `${code}×${n}`).join(' ');
  console.log(
    `health while 8 clients load /v1/verify (${seconds} s): p50 ${percentile(health, 0.5).toFixed(0)} ms, p95 ${percentile(health, 0.95).toFixed(0)} ms, max ${Math.max(...health).toFixed(0)} ms over ${health.length} polls; /v1/verify answers ${codes}, ${load()}`,
  );
}

console.log(`node ${process.version}, ${os.cpus().length} cores, ${load()} at start`);
try {
  if (mode === 'all' || mode === 'v2') await benchV2();
  if (mode === 'all' || mode === 'v1') await benchV1();
  if (mode === 'all' || mode === 'health') await benchHealth();
} finally {
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
}
