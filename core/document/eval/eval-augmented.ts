/**
 * Real documents under the benchmark's augmentation families: every document of a folder that carries an MRZ
 * printed valid and reads valid as it is, degraded `k` times by each family (seeded by its name), is read again
 * and compared with its own clean reading. How much margin the reader has on real print, which rendered pages
 * cannot show (other fonts, scans, patterns, photos).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { decodeImage } from '../../imaging/decode.js';
import { disposeMrzReader, readMrz } from '../mrz/index.js';
import { AUGMENTATIONS, augment } from '../render/augment.js';
import { seededRandom } from '../render/random-document.js';
import { printedValidDocuments } from './eval-documents.js';
import {
  documentSeed,
  outcomeOf,
  scoreRows,
  type SyntheticEvaluation,
  type SyntheticRow,
} from './eval-synthetic.js';

/** A seed of its own per file name: a document's copies stay the same when others join the folder. */
function nameSeed(seed: number, name: string): number {
  let h = seed >>> 0;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/** The figures of a folder's documents under every family, `k` copies each; `skipped` did not read valid as they are. */
export interface AugmentedEvaluation extends SyntheticEvaluation {
  skipped: string[];
}

/**
 * Degrade each document of `dir` that reads valid `k` times per family and read it again; `exact` in the result
 * means "as its clean reading" (which may itself differ from the print in a name).
 */
export async function evaluateAugmented(
  dir: string,
  k: number,
  seed: number,
  onRow?: (row: SyntheticRow) => void,
): Promise<AugmentedEvaluation> {
  const names = printedValidDocuments(dir);
  const rows: SyntheticRow[] = [];
  const skipped: string[] = [];
  try {
    for (const name of names) {
      const bytes = fs.readFileSync(path.join(dir, name));
      const clean = await readMrz(await decodeImage(bytes, { field: 'image' }));
      if (!clean?.valid) {
        skipped.push(name);
        continue;
      }
      const png = await sharp(bytes).png().toBuffer();
      for (const [f, family] of AUGMENTATIONS.entries()) {
        for (let j = 0; j < k; j++) {
          const copy = documentSeed(nameSeed(seed, name), f * k + j);
          const degraded = await augment(seededRandom(copy), family, png);
          const image = await decodeImage(degraded.bytes, { field: 'image' });
          const started = performance.now();
          const cpu = process.cpuUsage();
          const reading = await readMrz(image);
          const ms = performance.now() - started;
          const used = process.cpuUsage(cpu);
          const row: SyntheticRow = {
            index: rows.length,
            format: clean.format,
            family,
            params: `${name}: ${degraded.params}`,
            width: image.width,
            height: image.height,
            outcome: outcomeOf(reading, clean.lines),
            ms: Math.round(ms),
            cpuMs: Math.round((used.user + used.system) / 1000),
          };
          rows.push(row);
          onRow?.(row);
        }
      }
    }
  } finally {
    await disposeMrzReader();
  }
  const families: Record<string, ReturnType<typeof scoreRows>> = {};
  for (const family of AUGMENTATIONS) families[family] = scoreRows(rows.filter((r) => r.family === family));
  return { n: rows.length, seed, overall: scoreRows(rows), families, rows, skipped };
}
