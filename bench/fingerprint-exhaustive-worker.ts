/**
 * Worker of bench/fingerprint-search.ts: exhaustive 1:1 comparisons of probes against gallery records
 * offset, offset + stride, ... below `size`, in order, each probe until some impostor scores at least its genuine
 * score. Gallery records are drawn once and compared with every probe still undecided, so the matcher prepares
 * each record once.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { compareFeatures } from '../core/fingerprint/match/index.js';
import { syntheticFeatureRecord } from '../core/fingerprint/synthetic/index.js';
import type { FingerprintFeatures } from '../core/fingerprint/types.js';

/** One probe: its features, the gallery index of its finger and the genuine score. */
export interface ExhaustiveProbe {
  features: FingerprintFeatures;
  genuineIndex: number;
  genuine: number;
  /** Records of this worker below this index were compared by an earlier run (job.size: the probe is decided). */
  from: number;
}

/** What the worker is given. */
export interface ExhaustiveJob {
  probes: ExhaustiveProbe[];
  /** Enrolled records of the planted fingers (gallery indices 0 .. planted.length - 1). */
  planted: FingerprintFeatures[];
  size: number;
  offset: number;
  stride: number;
  /** Epoch milliseconds after which the worker stops. */
  deadline: number;
}

/** What it answers: per probe the first gallery index that beat it (or -1), and the indices fully covered. */
export interface ExhaustiveResult {
  beatenAt: number[];
  /** Every record of this worker's residue class below this index was compared (or its probe was decided). */
  reached: number;
}

const job = workerData as ExhaustiveJob;
const beatenAt = job.probes.map(() => -1);
const probes = job.probes.map((p) => ({ ...p, features: restore(p.features) }));
const planted = job.planted.map(restore);
const open = (i: number): boolean => beatenAt[i]! < 0 && probes[i]!.from < job.size;
// Resume at the first of this worker's records that some undecided probe has not met yet.
const start = Math.min(job.size, ...probes.map((p, i) => (open(i) ? p.from : job.size)));
let g = job.offset + Math.max(0, Math.ceil((start - job.offset) / job.stride)) * job.stride;
for (; g < job.size; g += job.stride) {
  if (!probes.some((_, i) => open(i)) || Date.now() > job.deadline) break;
  const record = g < planted.length ? planted[g]! : syntheticFeatureRecord(g);
  probes.forEach((p, i) => {
    if (!open(i) || g < p.from || g === p.genuineIndex) return;
    if (compareFeatures(p.features, record) >= p.genuine) beatenAt[i] = g;
  });
}
const result: ExhaustiveResult = { beatenAt, reached: probes.some((_, i) => open(i)) ? g : job.size };
parentPort?.postMessage(result);

/** Structured cloning keeps typed arrays, but be explicit about the optional extra. */
function restore(f: FingerprintFeatures): FingerprintFeatures {
  return f.extra ? { ...f, extra: new Uint8Array(f.extra) } : f;
}
