/**
 * Real documents lying in a larger photo: every document of a folder that carries an MRZ printed valid and reads
 * valid as it is, placed in a dark photo two and three times its size among other print (see render/scene.ts) and
 * read again.
 * The zone then spans a half or a third of the photo; what the search finds there, which a page alone cannot show.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { decodeImage } from '../../imaging/decode.js';
import { disposeMrzReader, readMrz } from '../mrz/index.js';
import { inScene } from '../render/scene.js';
import { printedValidDocuments } from './eval-documents.js';
import { outcomeOf, type SyntheticRow } from './eval-synthetic.js';
import { percentile } from './stats.js';

/** Photo sizes, in page sizes: the zone across about a half and a third of the photo. */
export const SCENE_FACTORS = [2, 3] as const;

/** One factor's figures: documents read valid and as read clean, and reading times. */
export interface SceneScore {
  factor: number;
  documents: number;
  valid: number;
  exact: number;
  msP50: number;
  msMax: number;
  /** Documents not read valid. */
  missed: string[];
}

/** Read each document of `dir` that reads valid as it is in a scene of every factor (see `inScene`). */
export async function evaluateScene(dir: string): Promise<SceneScore[]> {
  const names = printedValidDocuments(dir);
  const outcomes = SCENE_FACTORS.map(
    () => [] as { name: string; outcome: SyntheticRow['outcome']; ms: number }[],
  );
  try {
    for (const name of names) {
      const bytes = fs.readFileSync(path.join(dir, name));
      const clean = await readMrz(await decodeImage(bytes, { field: 'image' }));
      if (!clean?.valid) continue;
      // Upright and without alpha: the page is pasted as it is seen.
      const page = await sharp(bytes).rotate().flatten({ background: '#ffffff' }).png().toBuffer();
      for (const [i, factor] of SCENE_FACTORS.entries()) {
        const image = await decodeImage(await inScene(page, factor), { field: 'image' });
        const started = performance.now();
        const reading = await readMrz(image);
        outcomes[i]!.push({
          name,
          outcome: outcomeOf(reading, clean.lines),
          ms: performance.now() - started,
        });
      }
    }
  } finally {
    await disposeMrzReader();
  }
  return SCENE_FACTORS.map((factor, i) => {
    const rows = outcomes[i]!;
    const ms = rows.map((r) => r.ms);
    const valid = rows.filter((r) => r.outcome === 'exact' || r.outcome === 'valid-wrong');
    return {
      factor,
      documents: rows.length,
      valid: valid.length,
      exact: rows.filter((r) => r.outcome === 'exact').length,
      msP50: Math.round(percentile(ms, 0.5)),
      msMax: Math.round(Math.max(0, ...ms)),
      missed: rows.filter((r) => !valid.includes(r)).map((r) => r.name),
    };
  });
}
