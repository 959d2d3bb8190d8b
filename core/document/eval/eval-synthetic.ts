/**
 * The MRZ robustness benchmark: N rendered TD1/TD2/TD3 data pages with known MRZ, each degraded by one
 * augmentation family, read by `readMrz`. Reports per family and overall the share read valid, the share read
 * exactly (every line as printed), valid readings that are wrong, and ms per document. Seeded: same N and seed,
 * same documents, same figures (timings aside).
 */
import { decodeImage } from '../../imaging/decode.js';
import { disposeMrzReader, readMrz } from '../mrz/index.js';
import type { MrzReading } from '../mrz/index.js';
import { AUGMENTATIONS, augment, type Augmentation } from '../render/augment.js';
import { renderDocument } from '../render/render-document.js';
import { seededRandom } from '../render/random-document.js';
import type { TravelFormat } from '../render/mrz-text.js';
import { percentile } from './stats.js';

/** Figures of one family (or all of them). */
export interface SyntheticScore {
  documents: number;
  /** Read with every check digit and country code valid. */
  valid: number;
  validRate: number;
  /** Read exactly as printed (every line; hence every field). */
  exact: number;
  exactRate: number;
  /** Read valid but not as printed: a misreading that keeps every check (must stay near 0). */
  validButWrong: number;
  msP50: number;
  msP95: number;
  msMax: number;
  /** Process CPU time per document (all threads): the cost without other load on the machine. */
  cpuMsP50: number;
  cpuMsP95: number;
  cpuMsMax: number;
}

/** One benchmark document's outcome. */
export interface SyntheticRow {
  index: number;
  /** The rendered format (or, for a real document, the format it reads as). */
  format: string;
  family: Augmentation;
  params: string;
  width: number;
  height: number;
  outcome: 'exact' | 'valid-wrong' | 'invalid' | 'none';
  ms: number;
  cpuMs: number;
}

/** The benchmark's figures. */
export interface SyntheticEvaluation {
  n: number;
  seed: number;
  overall: SyntheticScore;
  families: Record<string, SyntheticScore>;
  rows: SyntheticRow[];
}

const FORMATS: TravelFormat[] = ['TD1', 'TD2', 'TD3'];

/** A per-document seed: documents stay the same when N grows. */
export function documentSeed(seed: number, index: number): number {
  return (Math.imul(seed + 1, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77)) >>> 0;
}

/** Which family and format document `index` gets: every family sees every format in turn. */
export function caseOf(index: number): { family: Augmentation; format: TravelFormat } {
  const family = AUGMENTATIONS[index % AUGMENTATIONS.length]!;
  const format = FORMATS[Math.floor(index / AUGMENTATIONS.length) % FORMATS.length]!;
  return { family, format };
}

/** A benchmark document: the rendered page's truth and the degraded image bytes. */
export interface SyntheticCase {
  family: Augmentation;
  format: TravelFormat;
  lines: string[];
  bytes: Buffer;
  params: string;
}

/** Render and degrade benchmark document `index` of `seed`. */
export async function syntheticCase(seed: number, index: number): Promise<SyntheticCase> {
  const { family, format } = caseOf(index);
  const docSeed = documentSeed(seed, index);
  const page = await renderDocument({ format, seed: docSeed });
  const degraded = await augment(seededRandom(docSeed ^ 0x5bd1e995), family, page.png);
  return { family, format, lines: page.lines, bytes: degraded.bytes, params: degraded.params };
}

/** Figures of a set of outcomes. */
export function scoreRows(rows: readonly SyntheticRow[]): SyntheticScore {
  const n = rows.length;
  const valid = rows.filter((r) => r.outcome === 'exact' || r.outcome === 'valid-wrong').length;
  const exact = rows.filter((r) => r.outcome === 'exact').length;
  const ms = rows.map((r) => r.ms);
  const cpu = rows.map((r) => r.cpuMs);
  return {
    documents: n,
    valid,
    validRate: n ? valid / n : 0,
    exact,
    exactRate: n ? exact / n : 0,
    validButWrong: rows.filter((r) => r.outcome === 'valid-wrong').length,
    msP50: Math.round(percentile(ms, 0.5)),
    msP95: Math.round(percentile(ms, 0.95)),
    msMax: Math.round(Math.max(0, ...ms)),
    cpuMsP50: Math.round(percentile(cpu, 0.5)),
    cpuMsP95: Math.round(percentile(cpu, 0.95)),
    cpuMsMax: Math.round(Math.max(0, ...cpu)),
  };
}

/** A reading's outcome against the lines it should read. */
export function outcomeOf(reading: MrzReading | null, truth: readonly string[]): SyntheticRow['outcome'] {
  if (!reading) return 'none';
  const exact = reading.lines.length === truth.length && reading.lines.every((l, i) => l === truth[i]);
  if (reading.valid) return exact ? 'exact' : 'valid-wrong';
  return 'invalid';
}

/** Render, degrade and read `n` documents from `seed`; `onRow` sees each outcome as it comes. */
export async function evaluateSynthetic(
  n: number,
  seed: number,
  onRow?: (row: SyntheticRow) => void,
): Promise<SyntheticEvaluation> {
  const rows: SyntheticRow[] = [];
  try {
    for (let index = 0; index < n; index++) {
      const { family, format, lines, bytes, params } = await syntheticCase(seed, index);
      const image = await decodeImage(bytes, { field: 'image' });
      const started = performance.now();
      const cpu = process.cpuUsage();
      const reading = await readMrz(image);
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const row: SyntheticRow = {
        index,
        format,
        family,
        params,
        width: image.width,
        height: image.height,
        outcome: outcomeOf(reading, lines),
        ms: Math.round(ms),
        cpuMs: Math.round((used.user + used.system) / 1000),
      };
      rows.push(row);
      onRow?.(row);
    }
  } finally {
    await disposeMrzReader();
  }
  const families: Record<string, SyntheticScore> = {};
  for (const family of AUGMENTATIONS) families[family] = scoreRows(rows.filter((r) => r.family === family));
  return { n, seed, overall: scoreRows(rows), families, rows };
}
