import type { LineRecognizer } from '../ocr/paddle-recognizer.js';
import type { CtcLine } from '../ocr/ctc.js';
import { alignToCells, classifyGlyphs } from './glyphs.js';
import { fitLineLength } from './line-length.js';
import { formatOf } from './layout.js';
import type { LineBand } from './locate.js';
import type { Raster } from './morphology.js';
import { repairMrz } from './repair.js';
import { sampleRotatedRect, stretchContrast } from './sample.js';
import { voteLines } from './vote.js';
import type { CandidateChar } from './repair.js';
import type { MrzReading } from './types.js';
import { validateMrzLines } from './validate.js';
import { toRaster, type OrientedView } from './view.js';

/** The MRZ alphabet (ICAO 9303): what the recogniser may emit. */
export const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';
/** Line crops are scaled so the text is at most this high: the recogniser reads at 48 pixels anyway. */
const MAX_LINE_HEIGHT = 96;

/** Mean character probability below which a line's repaired check digits are not trusted. */
const MIN_LINE_CONFIDENCE = 0.5;

/** How a line strip is cut (height as a multiple of the text's) and fitted into the recogniser (share of its height, squeeze). */
interface Variant {
  strip: number;
  fill: number;
  stretch: number;
}

/**
 * Cuts tried in turn until every check digit holds: the recogniser drops different characters with different
 * margins and squeezes, and a second look is cheaper than a wrong MRZ. The readings of a line are merged by
 * vote (see vote.ts), never mixed and matched until the check digits happen to hold.
 */
const VARIANTS: Variant[] = [
  { strip: 1.5, fill: 1, stretch: 0.8 },
  { strip: 1.5, fill: 0.8, stretch: 0.8 },
  { strip: 2, fill: 1, stretch: 0.8 },
  { strip: 2, fill: 0.8, stretch: 0.8 },
  { strip: 1.5, fill: 1, stretch: 1 },
];

/** A reading of one group of bands and how much of it holds. */
export interface Attempt {
  reading: Omit<MrzReading, 'ms'>;
  score: number;
}

/** Read a group of 2–3 bands as an MRZ: cut each line out level, recognise, fit to length, repair, validate. */
export async function readGroup(
  group: LineBand[],
  view: OrientedView,
  rec: LineRecognizer,
): Promise<Attempt | null> {
  const { scale, width, height } = view;
  const lineHeight = Math.max(...group.map((b) => b.height)) / scale;
  const left = Math.max(0, Math.floor(Math.min(...group.map((b) => b.x)) / scale - lineHeight));
  const top = Math.max(0, Math.floor(group[0]!.y / scale - lineHeight));
  // A pixel short of the edge: sharp's canvas for a free angle may round one pixel smaller than computed.
  const right = Math.min(
    width - 1,
    Math.ceil(Math.max(...group.map((b) => b.x + b.width)) / scale + lineHeight),
  );
  const last = group[group.length - 1]!;
  const bottom = Math.min(height - 1, Math.ceil((last.y + last.height) / scale + lineHeight));
  const region = { x: left, y: top, width: right - left, height: bottom - top };
  if (region.width < 8 || region.height < 8) return null;
  const cropScale = Math.min(1, MAX_LINE_HEIGHT / Math.max(1, lineHeight));
  const crop = await toRaster(
    view
      .pipeline()
      .extract({ left, top, width: region.width, height: region.height })
      .resize(
        Math.max(1, Math.round(region.width * cropScale)),
        Math.max(1, Math.round(region.height * cropScale)),
        {
          fit: 'fill',
        },
      ),
  );
  let best: Attempt | null = null;
  const readings: CtcLine[][] = group.map(() => []);
  for (const variant of VARIANTS) {
    const lines = await Promise.all(
      group.map((band) =>
        rec.recognize(cutStrip(crop, band, view, left, top, cropScale, variant.strip), MRZ_ALPHABET, {
          fill: variant.fill,
          stretch: variant.stretch,
        }),
      ),
    );
    // Not one filler pair in any line at the first look: printed text, not an MRZ; other cuts will not change that.
    if (readings[0]?.length === 0 && !lines.some((l) => l.text.includes('<<'))) break;
    lines.forEach((line, i) => readings[i]?.push(line));
    const attempt = interpret(readings, region);
    if (attempt && (!best || attempt.score > best.score)) best = attempt;
    if (best?.reading.valid) return best;
  }
  // A second opinion when no cut held: OCR-B templates on the line's fixed-pitch grid. They read what the
  // recogniser drops or mangles on small or soft print, and their reading joins the vote like another cut.
  const length = readings[0]?.length ? lineLengthOf(readings) : null;
  if (length === null) return best;
  const glyphs = group.map((band) =>
    classifyGlyphs(cutStrip(crop, band, view, left, top, cropScale, GLYPH_STRIP), length),
  );
  if (glyphs.some((g) => g === null)) return best;
  const attempt = interpretOnCells(readings, glyphs as CandidateChar[][], region);
  if (attempt && (!best || attempt.score > best.score)) best = attempt;
  return best;
}

/** Strip height (times the text's) cut for the glyph classifier. */
const GLYPH_STRIP = 2;

/** The MRZ line length of a group's readings (30 for three lines, else 36 or 44 by the longest reading). */
function lineLengthOf(readings: CtcLine[][]): number {
  if (readings.length === 3) return 30;
  const longest = Math.max(...readings.flat().map((l) => l.chars.length));
  return longest > 40 ? 44 : 36;
}

function cutStrip(
  crop: Raster,
  band: LineBand,
  view: OrientedView,
  left: number,
  top: number,
  cropScale: number,
  stripHeight: number,
): Raster {
  const k = cropScale / view.scale;
  // The ink centroid may sit off the box centre; follow the skew back to the box's middle column.
  const centreX = band.x + band.width / 2;
  const centreY = band.cy + (centreX - band.cx) * Math.tan(band.angle);
  const textHeight = Math.max(band.height * 0.5, band.height - band.width * Math.abs(Math.tan(band.angle)));
  return stretchContrast(
    sampleRotatedRect(crop, {
      cx: (centreX / view.scale - left) * cropScale,
      cy: (centreY / view.scale - top) * cropScale,
      width: (band.width / Math.cos(band.angle) + textHeight) * k,
      height: textHeight * stripHeight * k,
      angle: band.angle,
    }),
  );
}

function interpret(readings: CtcLine[][], region: MrzReading['region']): Attempt | null {
  const all = readings.flat();
  // The recogniser drops characters far more often than it invents them: the longest reading tells the format.
  const longest = Math.max(...all.map((l) => l.chars.length));
  const length = lineLengthOf(readings);
  if (longest < length * 0.8 || longest > length * 1.25) return null;
  if (!all.some((l) => l.text.includes('<<'))) return null;
  const fitted = readings.map((line) => {
    // Readings far off the length would vote out of step: use them only when nothing better exists.
    const close = line.filter((r) => Math.abs(r.chars.length - length) <= 2);
    return voteLines((close.length ? close : line).map((r) => fitLineLength(r.chars, length)));
  });
  const confidences = readings.map(
    (line) => line.reduce((s, r) => s + r.confidence, 0) / Math.max(1, line.length),
  );
  return judge(fitted, confidences, region);
}

/**
 * Interpret the readings of a group on the cells the glyph classifier found: every recognised line, however
 * many characters it dropped, is aligned onto the cells, and the glyph reading votes beside them.
 */
function interpretOnCells(
  readings: CtcLine[][],
  glyphs: CandidateChar[][],
  region: MrzReading['region'],
): Attempt | null {
  if (!readings.flat().some((l) => l.text.includes('<<'))) return null;
  const fitted = readings.map((line, i) => {
    const cells = glyphs[i] ?? [];
    const aligned = line
      .filter((r) => r.chars.length >= cells.length / 2)
      .map((r) => alignToCells(r.chars, cells));
    return voteLines([...aligned, cells]);
  });
  const confidences = readings.map((line, i) => {
    const cells = glyphs[i] ?? [];
    const glyph = cells.reduce((s, c) => s + c.prob, 0) / Math.max(1, cells.length);
    return (line.reduce((s, r) => s + r.confidence, 0) + glyph) / (line.length + 1);
  });
  return judge(fitted, confidences, region);
}

/** Repair and validate voted lines; `confidences` are the lines' mean character probabilities. */
function judge(
  fitted: CandidateChar[][],
  confidences: number[],
  region: MrzReading['region'],
): Attempt | null {
  const format = formatOf(fitted.map((l) => l.map((c) => c.char).join('')));
  if (!format) return null;
  const lines = confidences.map((confidence) => ({ confidence }));
  const repaired = repairMrz(format, fitted);
  const validation = validateMrzLines(repaired);
  if (!validation) return null;
  const confidence = lines.reduce((s, l) => s + l.confidence, 0) / lines.length;
  const passed = validation.checks.filter((c) => c.valid).length / Math.max(1, validation.checks.length);

  const { format: fmt, checks, countries, fields } = validation;
  // A line read this poorly can be "repaired" into any check digit: do not vouch for it.
  const valid = validation.valid && lines.every((l) => l.confidence >= MIN_LINE_CONFIDENCE);
  return {
    reading: { format: fmt, lines: repaired, valid, checks, countries, fields, region, confidence },
    score: passed + confidence * 0.1,
  };
}
