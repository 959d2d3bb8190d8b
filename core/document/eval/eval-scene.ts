/**
 * Real documents photographed as a branch photographs them: every document of a folder that carries an MRZ printed
 * valid and reads valid as it is, made into a harder photo and read again. Lying in a dark photo two and three times
 * its size among other print (see render/scene.ts), the zone spans a half or a third of the photo; bent as an open
 * passport's page (see render/bend.ts), its lines are arcs; shaken (see render/shake.ts), its print is smeared along
 * or across its lines; shrunk to a web image (see render/web.ts), its characters are a few pixels wide, faint or not;
 * printed heavier or lighter (see render/weight.ts), its strokes are thicker or thinner than its type's; laid on a
 * flatbed scanner's glass at its printed size (see render/flatbed.ts), it is a small part of a large scan, read at the
 * size `/v1/verify` decodes it.
 * What the reader does there, which a page alone cannot show.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { decodeImage } from '../../imaging/decode.js';
import type { ImagePurpose } from '../../imaging/working-size.js';
import { disposeMrzReader, readMrz } from '../mrz/index.js';
import type { MrzReading } from '../mrz/types.js';
import { bent, type Curl } from '../render/bend.js';
import { onFlatbed, printedWidth } from '../render/flatbed.js';
import { inScene } from '../render/scene.js';
import { shaken } from '../render/shake.js';
import { webImage } from '../render/web.js';
import { reweighted } from '../render/weight.js';
import { printedValidDocuments } from './eval-documents.js';
import { outcomeOf, type SyntheticRow } from './eval-synthetic.js';
import { percentile } from './stats.js';

/** Photo sizes, in page sizes: the zone across about a half and a third of the photo. */
export const SCENE_FACTORS = [2, 3] as const;

/**
 * Bent pages: how far the page's sides rise above its middle, or one side above the other, in character widths of
 * its MRZ (a line's curve is then about a text height from end to end).
 */
export const BENDS: readonly { curl: Curl; rise: number }[] = [
  { curl: 'sides', rise: 1.5 },
  { curl: 'side', rise: 4.5 },
];

/**
 * Shaken cameras: how far each point is smeared, in character widths of the MRZ, and at how many degrees from its
 * lines (0 along them, 90 across).
 */
export const SHAKES: readonly { length: number; degrees: number }[] = [
  { length: 0.35, degrees: 0 },
  { length: 0.35, degrees: 90 },
  { length: 0.5, degrees: 0 },
  { length: 0.5, degrees: 90 },
];

/**
 * Web images: the MRZ's character width in pixels, and the grey range print and paper are squeezed into with the
 * paper's grey (a washed-out scan: paper white, print light grey; a dim one: both darker).
 */
export const WEB_IMAGES: readonly { pitch: number; range: number; light: number }[] = [
  { pitch: 6, range: 255, light: 255 },
  { pitch: 5, range: 255, light: 255 },
  { pitch: 6, range: 60, light: 255 },
  { pitch: 6, range: 60, light: 158 },
];

/**
 * Print weights: how far each stroke's edges move, in character widths of the MRZ, outward (heavier: ink that spread)
 * or inward (lighter: hairlines). OCR-B's strokes are about a seventh of a character wide.
 */
export const WEIGHTS: readonly number[] = [0.06, 0.1, -0.04];

/** Flatbed scans: how far the page lies askew on the glass, degrees clockwise. */
export const FLATBED_TILTS: readonly number[] = [0, 2, -3];

/** One condition's figures: documents read valid and as read clean, and reading times. */
export interface ConditionScore {
  condition: string;
  documents: number;
  valid: number;
  exact: number;
  msP50: number;
  msMax: number;
  /** Documents not read valid. */
  missed: string[];
}

/** A way to make a harder photo of a page (a PNG, upright on white), given how the page reads as it is. */
interface Condition {
  label: string;
  make: (page: Buffer, clean: MrzReading) => Promise<Buffer>;
  /** What the image is decoded for (its working size, as the API decodes it); full resolution when none. */
  purposes?: readonly ImagePurpose[];
}

/** A page's MRZ character width in its pixels, as read clean: the zone's width over its line's characters. */
function characterWidth(clean: MrzReading): number {
  return clean.region.width / clean.lines[0]!.length;
}

/** Read each document of `dir` that reads valid as it is in a scene of every factor (see `inScene`). */
export function evaluateScene(dir: string): Promise<ConditionScore[]> {
  return evaluateConditions(
    dir,
    SCENE_FACTORS.map((factor) => ({
      label: `photo ${factor}x the page`,
      make: (page) => inScene(page, factor),
    })),
  );
}

/** Read each document of `dir` that reads valid as it is bent every way of `BENDS` (see `bent`). */
export function evaluateBent(dir: string): Promise<ConditionScore[]> {
  return evaluateConditions(
    dir,
    BENDS.map(({ curl, rise }) => ({
      label:
        curl === 'sides' ? `sides ${rise} characters above the middle` : `one side ${rise} characters up`,
      make: (page, clean) => bent(page, rise * characterWidth(clean), curl),
    })),
  );
}

/** Read each document of `dir` that reads valid as it is smeared every way of `SHAKES` (see `shaken`). */
export function evaluateShaken(dir: string): Promise<ConditionScore[]> {
  return evaluateConditions(
    dir,
    SHAKES.map(({ length, degrees }) => ({
      label: `smeared ${length} characters ${degrees === 0 ? 'along' : degrees === 90 ? 'across' : `at ${degrees}° to`} the lines`,
      make: (page, clean) => shaken(page, length * characterWidth(clean), degrees),
    })),
  );
}

/** Read each document of `dir` that reads valid as it is shrunk to every web image of `WEB_IMAGES` (see `webImage`). */
export function evaluateWeb(dir: string): Promise<ConditionScore[]> {
  return evaluateConditions(
    dir,
    WEB_IMAGES.map(({ pitch, range, light }) => ({
      label: `characters ${pitch} px wide${range < 255 ? `, ${range} grey levels up to ${light}` : ''}, JPEG 85`,
      make: (page, clean) => webImage(page, pitch / characterWidth(clean), range, light),
    })),
  );
}

/**
 * Read each document of `dir` that reads valid as it is laid on a flatbed scanner at every tilt of `FLATBED_TILTS`
 * (see `onFlatbed`), decoded as `/v1/verify` decodes an ID card.
 */
export function evaluateFlatbed(dir: string): Promise<ConditionScore[]> {
  return evaluateConditions(
    dir,
    FLATBED_TILTS.map((degrees) => ({
      label: `on an A4 flatbed at 300 dpi, ${degrees === 0 ? 'level' : `${Math.abs(degrees)}° askew`}, JPEG 90`,
      make: (page, clean) => onFlatbed(page, printedWidth(clean.format), degrees),
      purposes: ['document', 'face'],
    })),
  );
}

/** Read each document of `dir` that reads valid as it is printed at every weight of `WEIGHTS` (see `reweighted`). */
export function evaluateWeight(dir: string): Promise<ConditionScore[]> {
  return evaluateConditions(
    dir,
    WEIGHTS.map((weight) => ({
      label: `strokes ${weight > 0 ? 'heavier' : 'lighter'} by ${Math.abs(weight)} characters a side, JPEG 90`,
      make: (page, clean) => reweighted(page, weight * characterWidth(clean)),
    })),
  );
}

async function evaluateConditions(dir: string, conditions: readonly Condition[]): Promise<ConditionScore[]> {
  const names = printedValidDocuments(dir);
  const outcomes = conditions.map(
    () => [] as { name: string; outcome: SyntheticRow['outcome']; ms: number }[],
  );
  try {
    for (const name of names) {
      const bytes = fs.readFileSync(path.join(dir, name));
      const clean = await readMrz(await decodeImage(bytes, { field: 'image' }));
      if (!clean?.valid) continue;
      // Upright and without alpha: the page is used as it is seen.
      const page = await sharp(bytes).rotate().flatten({ background: '#ffffff' }).png().toBuffer();
      for (const [i, condition] of conditions.entries()) {
        const image = await decodeImage(await condition.make(page, clean), {
          field: 'image',
          purposes: condition.purposes ?? [],
        });
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
  return conditions.map((condition, i) => {
    const rows = outcomes[i]!;
    const ms = rows.map((r) => r.ms);
    const valid = rows.filter((r) => r.outcome === 'exact' || r.outcome === 'valid-wrong');
    return {
      condition: condition.label,
      documents: rows.length,
      valid: valid.length,
      exact: rows.filter((r) => r.outcome === 'exact').length,
      msP50: Math.round(percentile(ms, 0.5)),
      msMax: Math.round(Math.max(0, ...ms)),
      missed: rows.filter((r) => !valid.includes(r)).map((r) => r.name),
    };
  });
}
