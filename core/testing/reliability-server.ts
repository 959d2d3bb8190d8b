/**
 * Test child of the reliability suite: the real HTTP server over the real SQLite store with the real fingerprint
 * engine (one extraction worker; no face or document models, to start in a second), in a process of its own so a
 * test can SIGKILL it or put its data directory on a small filesystem.
 *
 *   node --import tsx core/testing/reliability-server.ts --data-dir DIR [--simulate-full]
 *
 * Prints `listening <url>`. Lines on stdin: `fill N` leaves N KiB of room (a ballast file fills the data directory's
 * filesystem; with --simulate-full, SQLite's max_page_count caps the database instead, where no small filesystem can
 * be mounted) and prints `filled`; `free` gives the room back and prints `freed`; `report` prints `report <json>`
 * (enrollments, the audit rows of enrollments, the chain check); `has <number>` prints `has yes|no`.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { FingerprintService } from '../fingerprint/index.js';
import { loadOrCreateTemplateKey } from '../fingerprint/template/index.js';
import { buildServer } from '../http/app.js';
import { createServices } from '../services/container.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const dataDir = flag('data-dir');
if (!dataDir) throw new Error('usage: reliability-server --data-dir DIR [--simulate-full]');

const services = await createServices({ dataDir, engines: false });
await services.settings.set('limits.rateLimitPerMinute', 1_000_000_000);
const fingerprint = new FingerprintService({
  enrollments: services.store.enrollments,
  templateKey: loadOrCreateTemplateKey(dataDir),
  settings: services.settings,
  pool: { size: 1 },
});
services.fingerprint = fingerprint;
services.disposers.push(() => fingerprint.close());
const app = await buildServer(services, { logger: { level: 'error', stream: process.stderr } });
await app.listen({ host: '127.0.0.1', port: 0 });

const connection = (
  services.store as unknown as {
    connection: { pragma(source: string, options?: { simple?: boolean }): unknown };
  }
).connection;
const simulate = args.includes('--simulate-full');
const ballast = path.join(dataDir, 'ballast');

/** Leave `kb` KiB of room for the database: fill the filesystem, or cap the database's pages. */
function fill(kb: number): void {
  if (simulate) {
    const pages = Number(connection.pragma('page_count', { simple: true }));
    const pageSize = Number(connection.pragma('page_size', { simple: true }));
    connection.pragma(`max_page_count = ${pages + Math.ceil((kb * 1024) / pageSize)}`);
    return;
  }
  const stats = fs.statfsSync(dataDir!);
  const size = Math.max(0, stats.bavail * stats.bsize - kb * 1024);
  const fd = fs.openSync(ballast, 'a');
  // Written, not sparse: tmpfs counts only the pages that hold data.
  const chunk = Buffer.alloc(1 << 20, 1);
  for (let left = size; left > 0; left -= chunk.length)
    fs.writeSync(fd, chunk, 0, Math.min(left, chunk.length));
  fs.closeSync(fd);
}

const address = app.server.address();
process.stdout.write(
  `listening http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`,
);

/** What the store holds: enrolled numbers, the audit rows of enrollments, and whether the chain holds. */
async function report(): Promise<Record<string, unknown>> {
  const rows = [];
  for (let after = 0; ;) {
    const page = await services.store.audit.range(after, 1000);
    rows.push(...page);
    if (page.length < 1000) break;
    after = page.at(-1)!.seq;
  }
  const enrolledRows = rows.filter((r) => r.route === '/v2/enroll-fp' && r.httpStatus === 200);
  const masked = [];
  for (const row of enrolledRows) masked.push({ mobile: row.mobileMasked, requestId: row.requestId });
  const enrollments = await services.store.enrollments.count();
  return {
    enrollments,
    enrolledRows: masked,
    chain: await services.audit.verifyChain(),
  };
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const command = line.trim();
  if (command.startsWith('fill ')) {
    fill(Number(command.slice(5)));
    process.stdout.write('filled\n');
  } else if (command === 'free') {
    if (simulate) connection.pragma('max_page_count = 1073741823');
    fs.rmSync(ballast, { force: true });
    process.stdout.write('freed\n');
  } else if (command.startsWith('has ')) {
    void services.store.enrollments.get(command.slice(4)).then((row) => {
      process.stdout.write(`has ${row ? 'yes' : 'no'}\n`);
    });
  } else if (command === 'report') {
    void report().then((r) => {
      process.stdout.write(`report ${JSON.stringify(r)}\n`);
    });
  }
});
