import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { buildServer } from '../core/http/app.js';
import { createServices, disposeServices } from '../core/services/container.js';
import { buildMultipart } from '../core/testing/multipart.js';
import { samplePhoto } from '../core/testing/images.js';

/** A ~1 MB JPEG derived from a shipped photo (upscaled, high quality). */
async function megabyteJpeg(n: 1 | 2 | 3): Promise<Buffer> {
  let width = 1600;
  for (;;) {
    const out = await sharp(samplePhoto(n)).resize({ width }).jpeg({ quality: 95 }).toBuffer();
    if (out.length >= 900_000 || width > 5000) return out;
    width = Math.round(width * 1.2);
  }
}

async function run(title: string, options: autocannon.Options): Promise<void> {
  const result = await autocannon({ connections: 16, duration: 10, ...options });
  const stats = result.statusCodeStats as unknown as Record<string, { count: number }>;
  const statuses = Object.entries(stats)
    .map(([code, s]) => `${code}×${s.count}`)
    .join(' ');
  console.log(
    `${title.padEnd(52)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p95 ${String(result.latency.p97_5).padStart(4)} ms (p97.5)   p99 ${result.latency.p99} ms   ${statuses}`,
  );
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-bench-'));
// Engines loaded, so health answers as in production (200 with model and store checks).
const services = await createServices({ dataDir });
await services.settings.set('limits.rateLimitPerMinute', 1_000_000);
const key = (await services.keys.create('http benchmark')).key;
const app = await buildServer(services, { logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const images = await Promise.all([megabyteJpeg(1), megabyteJpeg(2), megabyteJpeg(3)]);
const form = (mobile: string, card: Buffer) =>
  buildMultipart([
    { name: 'mobile_number', value: mobile },
    { name: 'fingerprint', filename: 'fp.jpg', contentType: 'image/jpeg', data: images[0] },
    { name: 'selfie', filename: 'selfie.jpg', contentType: 'image/jpeg', data: images[1] },
    { name: 'id_card', filename: 'card.jpg', contentType: 'image/jpeg', data: card },
  ]);
const badMobile = form('12', images[2]);
const truncated = form('447911123456', images[2].subarray(0, Math.floor(images[2].length * 0.6)));
console.log(
  `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), 16 connections, 10 s each`,
);
console.log(
  `upload: ${(badMobile.body.length / 1e6).toFixed(2)} MB multipart (three JPEGs of ${images.map((i) => (i.length / 1e6).toFixed(2)).join(', ')} MB)`,
);
await run('GET /docs/fingerprint/api/health', { url: `${url}/docs/fingerprint/api/health` });
await run('POST /v2/verify 3×1 MB, invalid mobile → 400', {
  url: `${url}/v2/verify`,
  method: 'POST',
  headers: { 'content-type': badMobile.contentType, 'x-api-key': key },
  body: badMobile.body,
});
await run('POST /v2/verify 3×1 MB, 2 decoded + truncated → 415', {
  url: `${url}/v2/verify`,
  method: 'POST',
  headers: { 'content-type': truncated.contentType, 'x-api-key': key },
  body: truncated.body,
});
await app.close();
await disposeServices(services);
fs.rmSync(dataDir, { recursive: true, force: true });
