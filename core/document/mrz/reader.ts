import type { DecodedImage } from '../../imaging/decode.js';
import type { CtcLine } from '../ocr/ctc.js';
import { loadLineRecognizer, type LineRecognizer } from '../ocr/paddle-recognizer.js';
import { GreyPyramid, softenBilevel, toGrey, toInkGrey } from './grey.js';
import { looksLikeBareMrzLine, looksLikePrint, readingDirection, ZoneReader } from './group-reader.js';
import type { Attempt } from './interpret.js';
import type { MrzReading } from './types.js';
import {
  findMrzCandidates,
  MIN_SIDE,
  type ZoneCandidate,
  type ZoneLine,
  type ZoneLook,
  type ZoneSearch,
} from './zone.js';

/** Candidate zones looked at, best first, before giving up. */
const MAX_CANDIDATES = 6;
/** Recogniser calls (one line each, ~15–45 ms) one image may cost: bounds the time spent on an image without MRZ. */
const MAX_CALLS = 18;
/** Characters in a TD1 line. */
const TD1_LINE = 30;
/**
 * Digits a TD1 first line read shows at least: its document number's check digit and most of the number (a label
 * of capitals on a card, read without its lower case, has none).
 */
const TD1_FIRST_LINE_DIGITS = 4;

/**
 * Least distance between two lines (times the taller one's text height as the search measured it) at which they may be
 * the first and last lines of three: consecutive MRZ lines lie about two heights apart.
 */
const TWO_LINES_APART = 2.6;

/**
 * The three-line zones a two-line zone may belong to: a line one spacing above it, or one below, where the
 * full-resolution fit looks for it (see fitToGroup); and first, when its lines lie as far apart as the first and
 * last of three, the line halfway between them (a card small in a large scan, whose middle line the search missed).
 */
export function withThirdLine(search: ZoneSearch, candidate: ZoneCandidate): ZoneCandidate[] {
  const [a, b] = candidate.lines.map((i) => search.lines[i]!);
  if (!a || !b) return [];
  const line = (from: ZoneLine, away: ZoneLine): ZoneLine => ({
    ...from,
    cx: 2 * from.cx - away.cx,
    cy: 2 * from.cy - away.cy,
  });
  search.lines.push(line(a, b), line(b, a));
  const before = search.lines.length - 2;
  const after = search.lines.length - 1;
  const around = [
    { lines: [before, ...candidate.lines], score: candidate.score },
    { lines: [...candidate.lines, after], score: candidate.score },
  ];
  if (Math.hypot(b.cx - a.cx, b.cy - a.cy) < TWO_LINES_APART * Math.max(a.height, b.height)) return around;
  const [first, last] = candidate.lines as [number, number];
  search.lines.push({ ...a, cx: (a.cx + b.cx) / 2, cy: (a.cy + b.cy) / 2 });
  return [{ lines: [first, search.lines.length - 1, last], score: candidate.score }, ...around];
}

/** Options of one read. */
export interface ReadMrzOptions {
  /** Asked between recogniser calls: true stops the read, which answers the best reading so far (or null). */
  shouldStop?: () => boolean;
  /** Milliseconds after which the read stops as if `shouldStop` said so. */
  budgetMs?: number;
  /** Stops the read as `shouldStop` does once aborted (a read on this thread whose answer is no longer wanted). */
  signal?: AbortSignal;
  /** Asked before each recogniser call: true lets the call use a second core (the machine has no other work). */
  spareCore?: () => boolean;
}

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
 * Which way a candidate reads: as found (false) or turned half round (true); null when its first line reads
 * like MRZ text neither way (printed text, a picture), nor, after a first line of TD1 capitals without fillers, any
 * line after it.
 */
async function directionOf(reader: ZoneReader, candidate: ZoneCandidate): Promise<boolean | null> {
  const found = await readingDirection(reader.probe(candidate, false), () => reader.probe(candidate, true));
  if (found !== null) return found;
  // Small faint print: the recogniser reads the fillers as C, K or S, where the templates see them.
  const byTemplates = await reader.templateDirection(candidate);
  if (byTemplates !== null || candidate.lines.length < 2) return byTemplates;
  // A first line of MRZ characters without fillers, which may have been taken for upright print: only a TD1 first
  // line can be one (its fillers, if any, end it; blur misreads them). The next line that reads either way tells the
  // direction (the second may hold no filler either: optional data filling its field).
  const bare = (line: CtcLine | null): boolean =>
    line !== null &&
    looksLikeBareMrzLine(line) &&
    Math.abs(line.chars.length - TD1_LINE) <= TD1_LINE / 5 &&
    (line.text.match(/\d/g)?.length ?? 0) >= TD1_FIRST_LINE_DIGITS;
  const ahead = await reader.probe(candidate, false);
  // Upside down, the line without fillers is the first line read turned half round (read already, unless the line
  // as found read as print: then the zone is upright print).
  if (!bare(ahead) && (ahead === null || looksLikePrint(ahead) || !bare(await reader.probe(candidate, true))))
    return null;
  for (let index = 1; index < candidate.lines.length; index++) {
    const direction = await readingDirection(reader.probe(candidate, false, index), () =>
      reader.probe(candidate, true, index),
    );
    if (direction !== null) return direction;
  }
  return null;
}

/**
 * Read the MRZ of a document image. One search over one working copy finds MRZ-like groups of 2–3 evenly
 * spaced long lines at any angle (quarter turns, skew, perspective); each group is read, best first, from the
 * full-resolution image, in whichever direction its first line reads as MRZ text: every line cut out level,
 * recognised with the MRZ alphabet only, fitted to the format's length and repaired with the check digits.
 * Null when no MRZ-like zone is found. Runs on any thread (the recognition model is loaded per thread).
 */
export async function readMrz(image: DecodedImage, options: ReadMrzOptions = {}): Promise<MrzReading | null> {
  const started = performance.now();
  if (Math.min(image.width, image.height) < MIN_SIDE) return null;
  // Zones are found and lines fitted where every channel is dark (black ink, not colour marks); the recogniser
  // reads luma, the grey it reads best.
  const pyramid = new GreyPyramid(softenBilevel(toInkGrey(image)));
  let luma: GreyPyramid | undefined;
  // The page as is first: most documents are photographed upright or upside down, and when its best zone reads
  // valid, the search across (quarter turns) is never made.
  const search = findMrzCandidates(pyramid, { frame: 'level' });
  let turned: ZoneCandidate[] | null = null;
  const searchTurned = (): ZoneCandidate[] =>
    (turned ??= merge(search, findMrzCandidates(pyramid, { frame: 'turned' })));
  if (search.candidates.length === 0) search.candidates.push(...searchTurned());
  const budget = options.budgetMs;
  const shouldStop = (): boolean =>
    (options.signal?.aborted ?? false) ||
    (options.shouldStop?.() ?? false) ||
    (budget !== undefined && performance.now() - started > budget);
  const reader = new ZoneReader(
    pyramid,
    search,
    await getRecognizer(),
    {
      maxCalls: MAX_CALLS,
      shouldStop,
      ...(options.spareCore ? { spareCore: options.spareCore } : {}),
    },
    () => (luma ??= new GreyPyramid(softenBilevel(toGrey(image)))),
  );
  const queue = search.candidates.slice(0, MAX_CANDIDATES);
  const [first] = queue;
  const zones: number[][] = [];
  let best = await readCandidates(reader, search, queue.splice(0, 1), null, zones);
  // When it did not read valid, the zones across, and those seen through a pattern or a stamp printed across the
  // MRZ (the first mask may have joined its characters into blots), are read with the rest, likeliest first.
  if (first && !done(best) && !reader.exhausted()) {
    queue.push(...searchTurned());
    queue.sort((a, b) => b.score - a.score);
    queue.splice(MAX_CANDIDATES - 1);
    queue.push(...freshZones(search, findMrzCandidates(pyramid, { ink: 'pattern' })));
    queue.sort((a, b) => b.score - a.score);
  }
  best = await readCandidates(reader, search, queue, best, zones);
  // Still nothing valid: look again levelled along a second direction the page has (a page askew of its table's
  // edges), through a pattern when the first look found no zone at all, and for faint print.
  const looks: ZoneLook[] = [];
  // Not when the first look read print surely: the document's own lines are level there, and so is its MRZ.
  if (search.askew.some((skews) => skews.length > 0) && !reader.readPrint())
    looks.push({ askew: search.askew });
  if (!first) looks.push({ ink: 'pattern' });
  // Print that a glare spot or uneven light left much fainter than the rest of the page, which its threshold drops.
  looks.push({ ink: 'faint' });
  // A document in a larger photo or scan: closing rows at the pitch of a zone across the whole image joins the
  // lines of a zone across half of it to whatever lies beside the page.
  looks.push({ span: SMALLER_ZONE });
  for (const look of looks) {
    if (done(best) || reader.calls >= FURTHER_LOOK_CALLS) break;
    const fresh = freshZones(search, findMrzCandidates(pyramid, look));
    best = await readCandidates(reader, search, fresh, best, zones);
  }
  if (!best) return null;
  return { ...best.reading, ms: Math.round(performance.now() - started) };
}

/** Whether a read is over: valid, or failing as printed (a document has one MRZ; no other zone reads it better). */
function done(best: Attempt | null): boolean {
  return (best?.reading.valid ?? false) || (best?.settled ?? false);
}

/** Zones each further look (askew, through a pattern) adds at most: it costs every page without an MRZ. */
const MAX_FRESH_ZONES = 1;
/**
 * Recogniser calls after which no look along a second direction is taken: a page of print has used them on its
 * lines, while an MRZ askew of the page's longest edges left the first look (almost) nothing to read.
 */
const FURTHER_LOOK_CALLS = MAX_CALLS / 2;

/** How many times less of the image the last look's zone spans than the first look's. */
const SMALLER_ZONE = 2;

/** The best zones of a further look that the search has not found yet, added to the search's lines. */
function freshZones(search: ZoneSearch, extra: ZoneSearch): ZoneCandidate[] {
  const offset = search.lines.length;
  const found = search.lines.slice();
  search.lines.push(...extra.lines);
  return extra.candidates
    .filter((c) => !c.lines.every((i) => found.some((line) => sameLine(line, extra.lines[i]!))))
    .slice(0, MAX_FRESH_ZONES)
    .map((c) => ({ ...c, lines: c.lines.map((i) => i + offset) }));
}

/** The search of the other frame joined to the first: its lines and askew directions added, its zones returned. */
function merge(search: ZoneSearch, other: ZoneSearch): ZoneCandidate[] {
  const offset = search.lines.length;
  search.lines.push(...other.lines);
  search.askew[0].push(...other.askew[0]);
  search.askew[1].push(...other.askew[1]);
  return other.candidates.map((c) => ({ ...c, lines: c.lines.map((i) => i + offset) }));
}

/** Whether two found lines are one: centres within half a text height, one direction. */
function sameLine(a: ZoneLine, b: ZoneLine): boolean {
  const near = Math.hypot(a.cx - b.cx, a.cy - b.cy) <= Math.min(a.height, b.height) / 2;
  return near && Math.abs(Math.sin(a.angle - b.angle)) < 0.05;
}

/**
 * Read candidate zones in turn, best first, until one reads valid or fails as printed; answers the best
 * attempt so far (`best` on entry included).
 */
async function readCandidates(
  reader: ZoneReader,
  search: ZoneSearch,
  queue: ZoneCandidate[],
  best: Attempt | null,
  // Three-line zones read as an MRZ: two of their lines alone would be read as a shorter format, wrongly.
  zones: number[][],
): Promise<Attempt | null> {
  for (let k = 0; k < queue.length; k++) {
    const candidate = queue[k]!;
    if (reader.exhausted() || done(best)) break;
    const inZone =
      candidate.lines.length === 2 && zones.some((z) => candidate.lines.every((i) => z.includes(i)));
    if (!inZone) {
      const flip = await directionOf(reader, candidate);
      if (flip === null) continue;
      const attempt = await reader.read(candidate, flip);
      if (attempt && candidate.lines.length === 3) zones.push(candidate.lines);
      if (attempt && (!best || attempt.score > best.score)) best = attempt;
      if (done(best)) break;
      if (candidate.lines.length === 2 && (await reader.longestFirstCut(candidate, flip)) > TD1_LINE + 2)
        continue;
    }
    // Two lines of identity-card length: a TD1 zone's third line may have escaped the search, or these two
    // lines, read again between neighbours placed by their spacing, may read better.
    if (candidate.lines.length === 2) queue.splice(k + 1, 0, ...withThirdLine(search, candidate));
  }
  return best;
}
