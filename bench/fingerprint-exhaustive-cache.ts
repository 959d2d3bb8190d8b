/**
 * What bench/fingerprint-search.ts's exhaustive pass has already learnt, kept between runs in bench/out (not
 * committed). The pass costs about 14 s a probe at 100k on two cores, and its answer depends only on the matcher,
 * the synthetic gallery and the prints, not on the search under test: so a later run starts each probe where the
 * last one stopped, and a probe once decided is not compared again.
 *
 * The file is named by a digest of the sources that decide the answer (the matcher, the synthetic records, the
 * model version, the worker) and of the planted prints; a change to any of them starts a new file. Entries are
 * keyed by a digest of the probe's features and its finger. Per worker (gallery residue class), an entry holds the
 * first index that beat the probe (-1 for none yet) and the index up to which every record was compared.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FingerprintFeatures } from '../core/fingerprint/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Source folders and files whose code decides an exhaustive answer (tests excluded). */
const SOURCES = [
  'core/fingerprint/match',
  'core/fingerprint/synthetic',
  'core/math',
  'core/fingerprint/types.ts',
  'core/fingerprint/calibration.ts',
  'bench/fingerprint-exhaustive-worker.ts',
];

/** One probe's progress: per worker, the first index that beat it (-1: none) and how far every record was compared. */
export interface ExhaustiveEntry {
  hits: number[];
  reached: number[];
}

function sourceFiles(): string[] {
  const files: string[] = [];
  for (const source of SOURCES) {
    const full = path.join(ROOT, source);
    if (fs.statSync(full).isDirectory()) {
      for (const name of fs.readdirSync(full).sort())
        if (name.endsWith('.ts') && !name.endsWith('.test.ts')) files.push(path.join(full, name));
    } else files.push(full);
  }
  return files;
}

function featuresDigest(hash: crypto.Hash, f: FingerprintFeatures): void {
  hash.update(JSON.stringify({ ...f, extra: f.extra ? Buffer.from(f.extra).toString('base64') : null }));
}

/** The entry key of a probe. */
export function probeKey(features: FingerprintFeatures, genuineIndex: number): string {
  const hash = crypto.createHash('sha256');
  featuresDigest(hash, features);
  hash.update(`#${genuineIndex}`);
  return hash.digest('hex').slice(0, 32);
}

/** Loads and saves the entries for one set of sources and planted prints. */
export class ExhaustiveCache {
  readonly file: string;
  private entries: Record<string, ExhaustiveEntry>;

  /** `kept` false: start from nothing and write nothing. */
  constructor(
    planted: FingerprintFeatures[],
    private readonly stride: number,
    private readonly kept = true,
  ) {
    const hash = crypto.createHash('sha256');
    for (const file of sourceFiles()) hash.update(path.relative(ROOT, file)).update(fs.readFileSync(file));
    for (const f of planted) featuresDigest(hash, f);
    hash.update(`stride ${stride}`);
    this.file = path.join(ROOT, 'bench/out', `exhaustive-${hash.digest('hex').slice(0, 16)}.json`);
    this.entries = {};
    if (!kept) return;
    try {
      this.entries = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, ExhaustiveEntry>;
    } catch {
      this.entries = {};
    }
  }

  /** A probe's progress, or none yet. */
  get(key: string): ExhaustiveEntry {
    const fresh = { hits: Array<number>(this.stride).fill(-1), reached: Array<number>(this.stride).fill(0) };
    return this.entries[key] ?? fresh;
  }

  set(key: string, entry: ExhaustiveEntry): void {
    this.entries[key] = entry;
  }

  /** Written whole to a temporary file, then renamed over the old one, so an interrupted run loses nothing kept. */
  save(): void {
    if (!this.kept) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(this.entries));
    fs.renameSync(temporary, this.file);
  }
}
