/**
 * 1:N search benchmark: galleries of 1k, 10k and 100k templates. Real FVC impressions are planted (impression 1
 * of each finger enrolled, impressions 2-8 as probes) among synthetic feature records (rendering 100k images
 * would take hours). Prints, at each size, the process RSS once the gallery is loaded and the in-memory index complete
 * (as it is, and after a full GC) with the index's own estimated bytes, search latency (p50/p95, extraction
 * excluded), the share of probes whose finger is among
 * the first stage's candidates (vector, minutia hash and star-edge indexes) and in the matcher's shortlist, the
 * rank-1 rate, and how the rank-1 hits compare with an exhaustive 1:1 search. The exhaustive pass runs once, over
 * the largest gallery, on a spread subset of probes, on two worker threads, each probe only until an impostor
 * reaches its genuine score (then it is no exhaustive hit); the galleries are prefixes of one another, so the first
 * index that beat a probe answers every size. What it learns is kept in bench/out (fingerprint-exhaustive-cache.ts):
 * a later run with the same matcher, synthetic gallery and prints resumes each probe where the last one stopped, so
 * a pass cut short by --exhaustive-seconds is not lost and decided probes cost nothing (--no-exhaustive-cache: start
 * afresh and keep nothing). Then it lists the exhaustive hits the search missed, and the stage that lost each.
 * With --store postgres://... the gallery goes to that (empty) PostgreSQL database instead of a temporary SQLite
 * file, the engine follows it as a replica does, and after each size a second replica is started on it: its
 * start-up (rebuilding the in-memory index from the database) is timed. --exhaustive-probes 0 skips the exhaustive
 * pass.
 * Usage: npm run bench:fingerprint-search [-- --sizes 1000,10000,100000 --candidates 500 --hash-candidates 1000
 *        --star-candidates 300 --shortlist 50 --exhaustive-probes 40 --exhaustive-seconds 900 --store URL]
 *        (candidate counts and shortlist default to the engine's settings, DEFAULT_FINGERPRINT_SETTINGS)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { extractFeatures } from '../core/fingerprint/extract/index.js';
import { FingerprintService } from '../core/fingerprint/index.js';
import { DEFAULT_FINGERPRINT_SETTINGS } from '../core/fingerprint/settings.js';
import { compareFeatures } from '../core/fingerprint/match/index.js';
import { syntheticFeatureRecord, syntheticFingerprint } from '../core/fingerprint/synthetic/index.js';
import type { FingerprintFeatures } from '../core/fingerprint/types.js';
import { decodeImage, rgbToGray } from '../core/imaging/decode.js';
import { loadOrCreateTemplateKey } from '../core/fingerprint/template/index.js';
import { Settings } from '../core/settings/settings.js';
import { openStore } from '../core/storage/open-store.js';
import { ExhaustiveCache, probeKey } from './fingerprint-exhaustive-cache.js';
import type { ExhaustiveJob, ExhaustiveProbe, ExhaustiveResult } from './fingerprint-exhaustive-worker.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const sizes = flag('sizes', '1000,10000,100000').split(',').map(Number);
// The engine's own defaults unless told otherwise.
const d = DEFAULT_FINGERPRINT_SETTINGS;
const candidates = Number(flag('candidates', String(d.candidates)));
const shortlist = Number(flag('shortlist', String(d.shortlist)));
const hashCandidates = Number(flag('hash-candidates', String(d.hashCandidates)));
const starCandidates = Number(flag('star-candidates', String(d.starCandidates)));
const exhaustiveProbeCount = Number(flag('exhaustive-probes', '40'));
const exhaustiveSeconds = Number(flag('exhaustive-seconds', '900'));
const exhaustiveCache = !args.includes('--no-exhaustive-cache');
const storeUrl = flag('store', '') || undefined;
const DATA = '/work/shared/data/fingerprints';
const SETS = ['FVC2002_DB1_B', 'FVC2002_DB3_B', 'FVC2004_DB1_B', 'FVC2004_DB4_B'];

interface Finger {
  mobile: string;
  /** Where the impressions come from, e.g. "FVC2004_DB1_B 103". */
  label: string;
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
        fingers.push({
          mobile: `+44700${String(fingers.length).padStart(6, '0')}`,
          label: `${set} ${f}`,
          impressions,
        });
      }
    }
    return { fingers, source: `real FVC impressions (${SETS.join(', ')})` };
  }
  for (let s = 0; s < 40; s++) {
    const impressions = Array.from({ length: 8 }, (_, i) =>
      extractFeatures(syntheticFingerprint(900_000 + s, i)),
    );
    fingers.push({
      mobile: `+44700${String(s).padStart(6, '0')}`,
      label: `synthetic ${900_000 + s}`,
      impressions,
    });
  }
  return { fingers, source: 'SYNTHETIC impressions (no /work/shared data on this machine)' };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

/** The .ts worker under tsx: register tsx's ESM loader first (execArgv does not reach a worker's entry). */
function startWorker(job: ExhaustiveJob): Promise<ExhaustiveResult> {
  const entry = new URL('./fingerprint-exhaustive-worker.ts', import.meta.url).href;
  const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  const worker = new Worker(bootstrap, { eval: true, workerData: job });
  return new Promise((resolve, reject) => {
    worker.once('message', (m: ExhaustiveResult) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/**
 * Per probe: the first gallery index whose record beat the genuine score (-1: none below `covered`), and the index
 * below which every record was compared with it. Starts from and adds to what earlier runs learnt (ExhaustiveCache).
 */
async function exhaustive(
  probes: Omit<ExhaustiveProbe, 'from'>[],
  planted: FingerprintFeatures[],
  size: number,
): Promise<{ beatenAt: number[]; covered: number[]; cache: ExhaustiveCache; reused: number }> {
  const stride = 2;
  const cache = new ExhaustiveCache(planted, stride, exhaustiveCache);
  const keys = probes.map((p) => probeKey(p.features, p.genuineIndex));
  const entries = keys.map((key) => cache.get(key));
  const reused = entries.filter((e) => e.hits.some((h) => h >= 0) || e.reached.some((r) => r > 0)).length;
  const deadline = Date.now() + exhaustiveSeconds * 1000;
  const results = await Promise.all(
    Array.from({ length: stride }, (_, offset) =>
      startWorker({
        probes: probes.map((p, i) => ({
          ...p,
          from: entries[i]!.hits[offset]! >= 0 ? size : entries[i]!.reached[offset]!,
        })),
        planted,
        size,
        offset,
        stride,
        deadline,
      }),
    ),
  );
  entries.forEach((entry, i) => {
    results.forEach((r, w) => {
      if (entry.hits[w]! >= 0) return;
      entry.hits[w] = r.beatenAt[i]!;
      entry.reached[w] = Math.max(entry.reached[w]!, r.reached);
    });
    cache.set(keys[i]!, entry);
  });
  cache.save();
  const beatenAt = entries.map((e) => {
    const hits = e.hits.filter((b) => b >= 0);
    return hits.length > 0 ? Math.min(...hits) : -1;
  });
  // A worker that found an impostor stopped there: its records below that index were all compared.
  const covered = entries.map((e) => Math.min(...e.hits.map((h, w) => (h >= 0 ? h : e.reached[w]!))));
  return { beatenAt, covered, cache, reused };
}

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;
const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);
const pct = (n: number, d: number): string => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);

/**
 * Start another engine on the same store (a new handle, as a restarted replica or a second one opens it) and time
 * until its in-memory index holds every enrollment (with a shared store, the vectors too), in ms.
 */
async function replicaStartup(dir: string, settings: Settings): Promise<number> {
  const started = performance.now();
  const store = await openStore({ dataDir: dir, url: storeUrl });
  const replica = new FingerprintService({
    enrollments: store.enrollments,
    templateKey: loadOrCreateTemplateKey(dir),
    settings,
    pool: { size: 0 },
    followChanges: storeUrl !== undefined,
  });
  try {
    await replica.indexLoaded();
    return performance.now() - started;
  } finally {
    await replica.close();
    await store.close();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const { fingers, source } = await plantedFingers();
  console.log(
    `Planted: ${fingers.length} fingers from ${source}; probes: impressions 2-8 (${fingers.length * 7}). Candidates ${candidates} + ${hashCandidates} hashed + ${starCandidates} by star edges, shortlist ${shortlist}.`,
  );
  console.log(
    `Feature extraction of the planted prints: ${((performance.now() - started) / 1000).toFixed(1)} s; process RSS ${mb(process.memoryUsage().rss)} MB`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fp-bench-'));
  const store = await openStore({ dataDir: dir, url: storeUrl });
  if (storeUrl && (await store.enrollments.count()) > 0) {
    await store.close();
    throw new Error('--store needs an empty database: the benchmark enrolls its own gallery there.');
  }
  console.log(
    `Store: ${storeUrl ? 'PostgreSQL (shared; vectors searched in memory)' : 'SQLite (sqlite-vec)'}`,
  );
  const settings = await Settings.open(store.settings);
  await settings.setMany({
    'fingerprint.searchCandidates': candidates,
    'fingerprint.searchShortlist': shortlist,
    'fingerprint.searchHashCandidates': hashCandidates,
    'fingerprint.searchStarCandidates': starCandidates,
    // The benchmark measures search: every planted finger is enrolled, whatever the enrollment quality policy.
    'fingerprint.qualityFloor': 0,
    'fingerprint.minMinutiae': 1,
  });
  const service = new FingerprintService({
    enrollments: store.enrollments,
    templateKey: loadOrCreateTemplateKey(dir),
    settings,
    pool: { size: 0 },
    followChanges: storeUrl !== undefined,
  });
  await service.indexLoaded();
  for (const f of fingers)
    await service.enrollFeatures(f.mobile, f.impressions[0]!, { skipDuplicateCheck: true });
  let gallerySize = fingers.length;
  const probes = fingers.flatMap((f, fi) =>
    f.impressions.slice(1).map((p, i) => ({
      mobile: f.mobile,
      genuineIndex: fi,
      features: p,
      name: `${f.label}_${i + 2}`,
    })),
  );
  const perSize: {
    size: number;
    p50: number;
    p95: number;
    inCandidates: boolean[];
    inShortlist: boolean[];
    searchHit: boolean[];
    load: string;
    startup: number;
    rss: number;
    indexBytes: number;
  }[] = [];
  try {
    for (const size of sizes) {
      const loadStart = performance.now();
      // Synthetic records in store transactions of 1000.
      for (let n = gallerySize; n < size; n += 1000) {
        const chunk = Array.from({ length: Math.min(1000, size - n) }, (_, i) => ({
          mobile: `+44791${String(n + i).padStart(7, '0')}`,
          features: syntheticFeatureRecord(n + i),
        }));
        await service.enrollMany(chunk);
      }
      gallerySize = Math.max(gallerySize, size);
      const loadedRss = process.memoryUsage().rss;
      // What the process keeps once the garbage of loading is collected (V8 collects it lazily).
      collectGarbage();
      const memory = process.memoryUsage();
      const rss = memory.rss;
      const indexBytes = service.indexBytes();
      console.log(
        `Gallery ${size}: loaded in ${((performance.now() - loadStart) / 1000).toFixed(1)} s; process RSS ${mb(loadedRss)} MB, after a full GC ${mb(rss)} MB (V8 heap ${mb(memory.heapUsed)} of ${mb(memory.heapTotal)} MB, array buffers ${mb(memory.arrayBuffers)} MB); in-memory index ${mb(indexBytes)} MB`,
      );
      const times: number[] = [];
      const searchHit: boolean[] = [];
      const inCandidates: boolean[] = [];
      const inShortlist: boolean[] = [];
      for (const probe of probes) {
        const t = performance.now();
        // k = shortlist: every matcher-scored candidate comes back, so shortlist membership is visible too.
        const result = await service.searchFeatures(probe.features, shortlist);
        times.push(performance.now() - t);
        searchHit.push(result.candidates[0]?.mobile === probe.mobile);
        inShortlist.push(result.candidates.some((c) => c.mobile === probe.mobile));
        const ids = await service.firstStageCandidates(probe.features);
        inCandidates.push((await store.enrollments.indexRows(ids)).some((r) => r.mobile === probe.mobile));
      }
      const load = os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ');
      const startup = await replicaStartup(dir, settings);
      perSize.push({
        rss,
        indexBytes,
        startup,
        size,
        p50: percentile(times, 0.5),
        p95: percentile(times, 0.95),
        inCandidates,
        inShortlist,
        searchHit,
        load,
      });
      console.log(
        `  p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms, rank-1 ${searchHit.filter(Boolean).length}/${probes.length}, load ${load}; a new replica's start-up (index rebuild from the store) ${(startup / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await service.close();
    settings.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (exhaustiveProbeCount <= 0) {
    for (const r of perSize)
      console.log(
        `| ${r.size} | search p50 ${r.p50.toFixed(1)} ms | p95 ${r.p95.toFixed(1)} ms | first stage ${pct(r.inCandidates.filter(Boolean).length, probes.length)} | shortlist ${pct(r.inShortlist.filter(Boolean).length, probes.length)} | rank-1 ${pct(r.searchHit.filter(Boolean).length, probes.length)} | RSS ${mb(r.rss)} MB | index ${mb(r.indexBytes)} MB | start-up ${(r.startup / 1000).toFixed(1)} s | load ${r.load} |`,
      );
    return;
  }
  // Exhaustive 1:1 on a subset spread over fingers and impressions: finger i, impression 2 + (i mod 7), ...
  const chosen = Array.from({ length: Math.min(exhaustiveProbeCount, probes.length) }, (_, j) => {
    const finger = j % fingers.length;
    const round = Math.floor(j / fingers.length);
    return finger * 7 + ((finger + round) % 7);
  });
  const planted = fingers.map((f) => f.impressions[0]!);
  const exhaustiveStart = performance.now();
  const genuineScores = chosen.map((i) =>
    compareFeatures(probes[i]!.features, planted[probes[i]!.genuineIndex]!),
  );
  const { beatenAt, covered, cache, reused } = await exhaustive(
    chosen.map((i, j) => ({
      features: probes[i]!.features,
      genuineIndex: probes[i]!.genuineIndex,
      genuine: genuineScores[j]!,
    })),
    planted,
    Math.max(...sizes),
  );
  console.log(
    `Exhaustive 1:1 of ${chosen.length} probes: ${((performance.now() - exhaustiveStart) / 1000).toFixed(0)} s, ` +
      `${reused} resumed from ${path.relative(process.cwd(), cache.file)}, gallery prefix covered for every ` +
      `probe ${Math.min(...covered.map((c, j) => (beatenAt[j]! >= 0 ? Infinity : c)))}`,
  );
  const rows: string[] = [
    '| gallery | search p50 ms | search p95 ms | finger in first-stage candidates | finger in shortlist | rank-1 (search) | exhaustive probes | rank-1 (exhaustive) | search hits / exhaustive hits | RSS MB (index MB) | load |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const count = (flags: boolean[]): number => flags.filter(Boolean).length;
  const losses: string[] = [];
  for (const r of perSize) {
    let decided = 0;
    let exhaustiveHits = 0;
    let bothHits = 0;
    chosen.forEach((i, j) => {
      const beaten = beatenAt[j]! >= 0 && beatenAt[j]! < r.size;
      // A probe still unbeaten where the budget stopped the pass is undecided for larger galleries.
      if (!beaten && covered[j]! < r.size) return;
      decided++;
      if (!beaten) {
        exhaustiveHits++;
        if (r.searchHit[i]) bothHits++;
        else {
          // Where the search lost a probe that the exhaustive search finds, for the analysis of the next change.
          const stage = !r.inCandidates[i]
            ? 'not in the first stage'
            : !r.inShortlist[i]
              ? 'not in the shortlist'
              : 'an impostor ranked first';
          losses.push(
            `  ${r.size}: ${probes[i]!.name}, genuine score ${genuineScores[j]!.toFixed(1)}, ${stage}`,
          );
        }
      }
    });
    rows.push(
      `| ${r.size} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${pct(count(r.inCandidates), probes.length)} | ${pct(count(r.inShortlist), probes.length)} | ${pct(count(r.searchHit), probes.length)} | ${decided} | ${pct(exhaustiveHits, decided)} | ${pct(bothHits, exhaustiveHits)} (${bothHits}/${exhaustiveHits}) | ${mb(r.rss)} (${mb(r.indexBytes)}) | ${r.load} |`,
    );
  }
  console.log(`\n${rows.join('\n')}`);
  if (losses.length > 0) console.log(`\nExhaustive hits the search missed:\n${losses.join('\n')}`);
  console.log(
    `\nos: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; total ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

await main();
