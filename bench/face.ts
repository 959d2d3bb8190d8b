import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../core/http/app.js';
import { createFaceEngine } from '../core/face/index.js';
import { PEOPLE, cardOnDesk, idCardOf, photoLike, selfieOf } from '../core/face/testing/fixtures.js';
import sharp from 'sharp';
import { createServices, disposeServices } from '../core/services/container.js';
import { buildMultipart } from '../core/testing/multipart.js';

/**
 * npm run bench:face [-- --requests N]: POST /v2/match-faces end to end over a real listener (multipart parse,
 * decode, detection with rotations, landmarks, alignment, two flip-averaged embeddings) with a ~1 MB selfie and a
 * ~1 MB ID-card photo; latency at one client, throughput and latency at 4 concurrent clients.
 */
const args = process.argv.slice(2);
const nAt = args.indexOf('--requests');
const requests = nAt >= 0 ? Number(args[nAt + 1]) : 30;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-bench-face-'));
const services = await createServices({ dataDir, engines: false });
await services.settings.set('limits.rateLimitPerMinute', 1_000_000);
const face = await createFaceEngine({ settings: services.settings });
services.face = face;
services.liveness = face;
services.disposers.push(() => face.dispose());
const key = (await services.keys.create('face benchmark')).key;
const app = await buildServer(services, { logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v2/match-faces`;

// Phone-like uploads: a 1536 px wide selfie and a 2048 px wide shot of a card on a desk, each about 1 MB.
const selfie = await photoLike(await selfieOf(PEOPLE.d, 1536), 1536, 1_000_000);
const card = await photoLike(await cardOnDesk(await idCardOf(PEOPLE.d, 1600), 2048), 2048, 1_000_000);
const size = async (b: Buffer): Promise<string> => {
  const m = await sharp(b).metadata();
  return `${m.width ?? 0}x${m.height ?? 0}, ${(b.length / 1e6).toFixed(2)} MB`;
};
const form = buildMultipart([
  { name: 'selfie', filename: 'selfie.jpg', contentType: 'image/jpeg', data: selfie },
  { name: 'id_card', filename: 'card.jpg', contentType: 'image/jpeg', data: card },
]);

async function once(): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    body: form.body,
    headers: { 'content-type': form.contentType, 'x-api-key': key },
  });
  const body = (await res.json()) as { status?: string };
  if (res.status !== 200 || body.status !== 'SUCCESS')
    throw new Error(`unexpected answer ${res.status} ${JSON.stringify(body)}`);
  return performance.now() - t;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function clients(n: number, total: number): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  let left = total;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (left-- > 0) latencies.push(await once());
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - start) / 1000 };
}

console.log(
  `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`selfie ${await size(selfie)}; ID card photo ${await size(card)}; ${requests} requests per row`);
for (let i = 0; i < 3; i++) await once(); // warm-up: JIT, sharp and ONNX kernels
console.log('clients  requests   req/s   p50 ms   p95 ms   max ms');
for (const n of [1, 4]) {
  const { latencies, seconds } = await clients(n, requests);
  console.log(
    `${String(n).padStart(7)}  ${String(latencies.length).padStart(8)}  ${(latencies.length / seconds).toFixed(2).padStart(6)}  ${quantile(latencies, 0.5).toFixed(0).padStart(7)}  ${quantile(latencies, 0.95).toFixed(0).padStart(7)}  ${(latencies[latencies.length - 1] ?? NaN).toFixed(0).padStart(7)}`,
  );
}
await app.close();
await disposeServices(services);
fs.rmSync(dataDir, { recursive: true, force: true });
