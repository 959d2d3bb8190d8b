/**
 * 1:N search benchmark: galleries of 1k, 10k and 100k templates. Real FVC impressions are planted (impression 1
 * of each finger enrolled, impressions 2-8 as probes) among synthetic feature records (rendering 100k images
 * would take hours). Prints search latency (p50/p95, extraction excluded), the share of probes whose finger is in
 * the vector shortlist, the rank-1 rate, and how the rank-1 hits compare with an exhaustive 1:1 search over the
 * whole gallery on as many probes as the time budget allows.
 * Usage: npm run bench:fingerprint-search [-- --sizes 1000,10000,100000 --shortlist 100 --exhaustive-seconds 120]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EnrollmentStore } from '../core/fingerprint/enrollment-store.js';
import { extractFeatures } from '../core/fingerprint/extract/index.js';
import { FingerprintService } from '../core/fingerprint/index.js';
import { computeEmbedding } from '../core/fingerprint/index/embedding.js';
import { compareFeatures } from '../core/fingerprint/match/index.js';
import { syntheticFeatureRecord, syntheticFingerprint } from '../core/fingerprint/synthetic/index.js';
import type { FingerprintFeatures } from '../core/fingerprint/types.js';
import { decodeImage, rgbToGray } from '../core/imaging/decode.js';
import { openStore } from '../core/storage/db.js';
import { SettingsStore } from '../core/storage/settings.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const sizes = flag('sizes', '1000,10000,100000').split(',').map(Number);
const shortlist = Number(flag('shortlist', '100'));
const exhaustiveSeconds = Number(flag('exhaustive-seconds', '120'));
const DATA = '/work/shared/data/fingerprints';
const SETS = ['FVC2002_DB1_B', 'FVC2002_DB3_B', 'FVC2004_DB1_B', 'FVC2004_DB4_B'];

interface Finger {
  mobile: string;
  impressions: FingerprintFeatures[];
}

async function plantedFingers(): Promise<{ fingers: Finger[]; source: string }> {
  const fingers: Finger[] = [];
  if (fs.existsSync(DATA)) {
    for (const set of SETS) {
      for (let f = 101; f <= 110; f++) {
        const impressions: FingerprintFeatures[] = [];
        for (let i = 1; i <= 8; i++) {
          const image = await decodeImage(fs.readFileSync(path.join(DATA, set, `${f}_${i}.tif`)), {
            field: 'file',
          });
          impressions.push(
            extractFeatures(
              {
                width: image.width,
                height: image.height,
                data: rgbToGray(image.rgb, image.width, image.height),
              },
              { dpi: 500 },
            ),
          );
        }
        fingers.push({ mobile: `+44700${String(fingers.length).padStart(6, '0')}`, impressions });
      }
    }
    return { fingers, source: `real FVC impressions (${SETS.join(', ')})` };
  }
  for (let s = 0; s < 40; s++) {
    const impressions = Array.from({ length: 8 }, (_, i) =>
      extractFeatures(syntheticFingerprint(900_000 + s, i)),
    );
    fingers.push({ mobile: `+44700${String(s).padStart(6, '0')}`, impressions });
  }
  return { fingers, source: 'SYNTHETIC impressions (no /work/shared data on this machine)' };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const started = performance.now();
  const { fingers, source } = await plantedFingers();
  console.log(
    `Planted: ${fingers.length} fingers from ${source}; probes: impressions 2-8 (${fingers.length * 7}). Shortlist ${shortlist}.`,
  );
  console.log(
    `Feature extraction of the planted prints: ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fp-bench-'));
  const store = openStore(dir);
  const settings = new SettingsStore(store.db);
  settings.set('fingerprint.searchShortlist', shortlist);
  // The benchmark measures search: every planted finger is enrolled, whatever the enrollment quality policy.
  settings.set('fingerprint.qualityFloor', 0);
  settings.set('fingerprint.minMinutiae', 1);
  const service = new FingerprintService({
    db: store.db,
    dataDir: store.dataDir,
    settings,
    pool: { size: 0 },
  });
  const enrollments = new EnrollmentStore(store.db);
  for (const f of fingers) service.enrollFeatures(f.mobile, f.impressions[0]!, { skipDuplicateCheck: true });
  // Synthetic records are re-drawn from their index when needed: holding 100k of them (and the matcher's
  // per-print preparation of each) would exhaust the heap.
  let gallerySize = fingers.length;
  const galleryRecord = (n: number): FingerprintFeatures =>
    n < fingers.length ? fingers[n]!.impressions[0]! : syntheticFeatureRecord(n);
  const rows: string[] = [
    '| gallery | search p50 ms | search p95 ms | finger in shortlist | rank-1 (search) | exhaustive probes | rank-1 (exhaustive) | search hits / exhaustive hits |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const probes = fingers.flatMap((f) =>
    f.impressions.slice(1).map((p) => ({ mobile: f.mobile, features: p })),
  );
  try {
    for (const size of sizes) {
      const loadStart = performance.now();
      enrollments.transaction(() => {
        for (let n = gallerySize; n < size; n++) {
          service.enrollFeatures(`+44791${String(n).padStart(7, '0')}`, syntheticFeatureRecord(n), {
            skipDuplicateCheck: true,
          });
        }
      });
      gallerySize = Math.max(gallerySize, size);
      console.log(`Gallery ${size}: loaded in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`);
      const times: number[] = [];
      const searchHit: boolean[] = [];
      let inShortlist = 0;
      for (const probe of probes) {
        const t = performance.now();
        const result = service.searchFeatures(probe.features, 1);
        times.push(performance.now() - t);
        searchHit.push(result.candidates[0]?.mobile === probe.mobile);
        const ids = enrollments.vectors.nearest(computeEmbedding(probe.features), shortlist).map((h) => h.id);
        if (enrollments.getMany(ids).some((r) => r.mobile === probe.mobile)) inShortlist++;
      }
      // Exhaustive 1:1 over the whole gallery, probe by probe (spread over fingers) until the time budget is spent.
      const budgetEnd = performance.now() + exhaustiveSeconds * 1000;
      let exhaustiveProbes = 0;
      let exhaustiveHits = 0;
      let bothHits = 0;
      const order = probes.map((_, i) => i).sort((a, b) => (a % 7) - (b % 7) || a - b);
      for (const i of order) {
        if (performance.now() > budgetEnd) break;
        const probe = probes[i]!;
        const genuineIndex = fingers.findIndex((f) => f.mobile === probe.mobile);
        const genuine = compareFeatures(probe.features, galleryRecord(genuineIndex));
        let best = -1;
        let g = 0;
        for (; g < gallerySize && best < genuine && performance.now() < budgetEnd; g++) {
          if (g !== genuineIndex) best = Math.max(best, compareFeatures(probe.features, galleryRecord(g)));
        }
        // A probe cut off by the budget before it was decided is not counted.
        if (best < genuine && g < gallerySize) break;
        exhaustiveProbes++;
        if (genuine > best) {
          exhaustiveHits++;
          if (searchHit[i]) bothHits++;
        }
      }
      const pct = (n: number, d: number): string => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);
      rows.push(
        `| ${size} | ${percentile(times, 0.5).toFixed(1)} | ${percentile(times, 0.95).toFixed(1)} | ${pct(inShortlist, probes.length)} | ${pct(searchHit.filter(Boolean).length, probes.length)} | ${exhaustiveProbes} | ${pct(exhaustiveHits, exhaustiveProbes)} | ${pct(bothHits, exhaustiveHits)} |`,
      );
      console.log(rows[rows.length - 1]);
    }
  } finally {
    await service.close();
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n${rows.join('\n')}`);
  console.log(
    `\nos: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; total ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

await main();
