import type { DecodedImage } from '../../imaging/decode.js';
import { loadLineRecognizer, type LineRecognizer } from '../ocr/paddle-recognizer.js';
import { readGroup, type Attempt } from './group-reader.js';
import { analyseLines, groupMrzBands } from './locate.js';
import type { MrzReading } from './types.js';
import { orient, toRaster } from './view.js';

/** Groups of bands tried per orientation before giving up on it. */
const MAX_GROUPS = 4;

type Rotation = 0 | 90 | 180 | 270;
/** Upright first; upside down is the commonest mistake at a scanner, then either quarter turn. */
const ROTATIONS: Rotation[] = [0, 180, 90, 270];

/** Skew beyond which the image is levelled before the zone search (radians, 1.5°). */
const MAX_SKEW = (1.5 * Math.PI) / 180;

let recognizer: Promise<LineRecognizer> | null = null;

function getRecognizer(): Promise<LineRecognizer> {
  recognizer ??= loadLineRecognizer().catch((error: unknown) => {
    recognizer = null;
    throw error;
  });
  return recognizer;
}

/** Release the recognition model (tests, shutdown). The next read loads it again. */
export async function disposeMrzReader(): Promise<void> {
  const current = recognizer;
  recognizer = null;
  if (current) await (await current).dispose();
}

/**
 * Read the MRZ of a document image: find the band of 2–3 evenly spaced long text lines (trying the image
 * turned 180° when the upright reading fails, and 90° either way when neither finds an MRZ-like zone), cut each line out level, recognise it
 * with the MRZ alphabet only, fit it to the format's length and repair it with the check digits.
 * Null when no MRZ-like zone is found. Heavy work runs in sharp and onnxruntime threads.
 */
export async function readMrz(image: DecodedImage): Promise<MrzReading | null> {
  const started = performance.now();
  const rec = await getRecognizer();
  let best: Attempt | null = null;
  for (const rotation of ROTATIONS) {
    // An MRZ-like zone (fillers, the right length) upright or upside down: a quarter turn cannot do better.
    if (rotation % 180 !== 0 && best) break;
    const attempt = await readOriented(image, rotation, rec);
    if (attempt && (!best || attempt.score > best.score)) best = attempt;
    // Half the check digits holding means the zone was found the right way up: turning will not help.
    if (best && (best.reading.valid || passedShare(best) >= 0.5)) break;
  }
  if (!best) return null;
  return { ...best.reading, ms: Math.round(performance.now() - started) };
}

function passedShare(attempt: Attempt): number {
  const { checks } = attempt.reading;
  return checks.filter((c) => c.valid).length / Math.max(1, checks.length);
}

async function readOriented(
  image: DecodedImage,
  rotation: Rotation,
  rec: LineRecognizer,
): Promise<Attempt | null> {
  let view = orient(image, rotation);
  let analysis = analyseLines(
    await toRaster(view.pipeline().resize(view.workWidth, view.workHeight, { fit: 'fill' })),
  );
  // A tilted photo breaks lines into pieces: level it by the text's own skew and search again.
  if (Math.abs(analysis.skew) > MAX_SKEW) {
    view = orient(image, rotation - (analysis.skew * 180) / Math.PI);
    analysis = analyseLines(
      await toRaster(view.pipeline().resize(view.workWidth, view.workHeight, { fit: 'fill' })),
    );
  }
  const groups = groupMrzBands(analysis.bands).slice(0, MAX_GROUPS);
  let best: Attempt | null = null;
  for (const group of groups) {
    const attempt = await readGroup(group, view, rec);
    if (!attempt) continue;
    attempt.reading.region = view.toImageBox(attempt.reading.region);
    if (!best || attempt.score > best.score) best = attempt;
    if (best.reading.valid) break;
  }
  return best;
}
