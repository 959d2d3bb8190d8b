import type { CtcLine } from '../ocr/ctc.js';
import type { LineRecognizer } from '../ocr/paddle-recognizer.js';
import { isIcaoCountryCode } from './countries.js';
import { classifyGlyphs } from './glyphs.js';
import type { GreyPyramid } from './grey.js';
import {
  changedOnlyByVote,
  failingLookAlikes,
  fillerDoubts,
  freeFillerDoubts,
  interpret,
  interpretOnCells,
  lineLengthOf,
  lookAlikePositions,
  lookAlikesOf,
  showsGlyphFillers,
  withGlyphFillers,
  withGlyphLookAlikes,
  type Attempt,
} from './interpret.js';
import {
  asLetters,
  CERTAIN,
  hasFillerRun,
  hasMisreadRun,
  nameField,
  showsFillers,
  type CandidateChar,
} from './repair.js';
import { fitToGroup } from './group-fit.js';
import { LAYOUTS } from './layout.js';
import { refineLine } from './refine.js';
import { alongStrip, across, cutStrip, flipLayout, layoutGroup, zoneBox, type StripLine } from './strips.js';
import type { ZoneCandidate, ZoneSearch } from './zone.js';

/** The MRZ alphabet (ICAO 9303): what the recogniser may emit. */
export const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/** How a line strip is cut (height as a multiple of the text's) and fitted into the recogniser (share of its height, squeeze). */
interface Variant {
  strip: number;
  fill: number;
  stretch: number;
}

/**
 * Cuts tried in turn until every check digit holds: the recogniser drops different characters with different
 * margins and squeezes, and another look is cheaper than a wrong MRZ. The last, wider one reads some lines the
 * narrower ones garble (a line beside a wood grain, small print) and names more exactly. The readings of a line
 * are merged by vote (see vote.ts), never mixed and matched until the check digits happen to hold.
 */
const VARIANTS: Variant[] = [
  { strip: 1.4, fill: 1, stretch: 1 },
  { strip: 1.5, fill: 1, stretch: 0.8 },
  { strip: 1.4, fill: 1, stretch: 1.3 },
];

/**
 * Longest line, in text heights, that can be an MRZ line: 44 characters about one text height apart, with room
 * for a height measured short. Longer lines are rows of print (and would cost several times a line's reading).
 */
const MAX_LINE_ASPECT = 66;

/**
 * How many times `MAX_LINE_ASPECT` a line may span as the zone search measured it before it is taken for a row of
 * print without a fit: the search's text height (its closed mask at the working scale) can be as little as half
 * the fitted one under blur or perspective, and fitting a row of print across a page costs several long strips.
 */
const SEARCH_ASPECT_SLACK = 2;

/** Strip height (times the text's) cut for the glyph classifier. */
const GLYPH_STRIP = 2;

/**
 * Text height, in image pixels, under which print is small: there the recogniser reads a filler surely as C, K, S
 * or E, M as N or H, and a B among digits as 8 (a TD3 line on a page under about 450 pixels wide).
 */
const SMALL_PRINT = 10;

/**
 * Eight or more in a row of fillers and what small faint print makes of them (C, K, S, E, A, 4), mixed: a filler run
 * the recogniser read as no one letter, which only the templates can tell from print.
 */
const FILLER_LIKE_RUN = /[CKSEA4<]{8,}/;

/** What a name line holds: letters and fillers (its document code and state too). */
const NAME_LINE = /[A-Z<]/;

/** Share of a line's non-blank probability on characters outside the MRZ alphabet above which it is not MRZ text. */
const MAX_FOREIGN = 0.35;

/** Limits of one image's reading: recogniser calls, and a caller's wish to stop. */
export interface ReadLimits {
  maxCalls: number;
  shouldStop: () => boolean;
  /** Asked before each recogniser call: true lets it use a second core (the machine is otherwise idle). */
  spareCore?: () => boolean;
}

/** Whether a recognised line reads like MRZ text: long enough, MRZ characters, and fillers (printed text has none). */
export function looksLikeMrzLine(line: CtcLine): boolean {
  return line.chars.length >= 12 && line.foreign <= MAX_FOREIGN && hasFillers(line.text);
}

/**
 * Whether a line reads as printed text the right way up (not MRZ, and not one upside down either): a dozen
 * lower-case letters surely read by the whole model; or, a dozen or more MRZ characters, surely read capitals
 * without fillers (nor a run of one letter, as fillers misread), or mostly characters outside the MRZ alphabet.
 * An MRZ read the wrong way round (upside down or the other quarter turn) yields only a few characters, and no
 * lower-case words (its fillers read as `>`).
 */
export function looksLikePrint(line: CtcLine): boolean {
  // Lower-case print leaves few MRZ characters, so the count below would miss it.
  const words = line.lowerCase;
  if (words && words.count >= PRINT_LENGTH && words.confidence >= SURE_PRINT) return true;
  if (line.chars.length < PRINT_LENGTH) return false;
  if (line.foreign > PRINT_FOREIGN) return true;
  // A run no word has is a filler run read as a letter (small print: `<` taken for `C`).
  return !hasFillers(line.text) && line.confidence >= SURE_PRINT;
}

/** A first line read this surely in one direction is not read the other way round too. */
const SURE_DIRECTION = 0.8;

/**
 * Which way a zone reads, from its first line read as found (`ahead`) and, only when that does not settle it,
 * turned half round: false as found, true turned, null neither (printed text, a picture).
 */
export async function readingDirection(
  aheadRead: Promise<CtcLine | null>,
  readBack: () => Promise<CtcLine | null>,
): Promise<boolean | null> {
  const ahead = await aheadRead;
  const aheadOk = ahead !== null && looksLikeMrzLine(ahead);
  if (aheadOk && ahead.confidence >= SURE_DIRECTION) return false;
  // Read surely as print the right way up: neither an MRZ nor one upside down.
  if (ahead && looksLikePrint(ahead)) return null;
  const back = await readBack();
  const backOk = back !== null && looksLikeMrzLine(back);
  if (aheadOk && backOk) return back.confidence - back.foreign > ahead.confidence - ahead.foreign;
  if (aheadOk) return false;
  if (backOk) return true;
  // A strip cut too tall (a curved page, a box round the zone) reads foreign ink beside MRZ text: a run of
  // fillers, which no print has, still tells the direction.
  const aheadRun = ahead !== null && hasFillerRun(ahead.text);
  if (aheadRun !== (back !== null && hasFillerRun(back.text))) return !aheadRun;
  return null;
}

/**
 * Whether a line reads as MRZ characters without fillers: capitals and digits, no lower-case words. A TD1 first line
 * may have no filler (a document code of two letters, optional data filling its field), or two at its end that blur
 * or small print misread; upright capitals of print read the same.
 */
export function looksLikeBareMrzLine(line: CtcLine): boolean {
  const words = line.lowerCase;
  if (words && words.count >= PRINT_LENGTH && words.confidence >= SURE_PRINT) return false;
  return line.chars.length >= PRINT_LENGTH && line.foreign <= PRINT_FOREIGN && !hasFillers(line.text);
}

/** Fillers, or a run that can only be fillers misread. */
function hasFillers(text: string): boolean {
  return text.includes('<') || hasMisreadRun(text);
}

/** Share of a line's probability outside the MRZ alphabet from which it is taken for lower-case print. */
const PRINT_FOREIGN = 0.5;

/** Characters a line must read to be judged print. */
const PRINT_LENGTH = 12;

/** Mean character probability from which a line without fillers is taken for upright printed text. */
const SURE_PRINT = 0.8;

/** Reads the candidate zones of one image; line readings are shared between groups that have lines in common. */
export class ZoneReader {
  private readonly cache = new Map<string, Promise<CtcLine>>();
  /** Recogniser calls made so far. */
  calls = 0;

  /**
   * `pyramid` is the grey lines are fitted on; `text` gives the grey of the same image that strips are cut from for
   * the recogniser and the glyph classifier (by default the same; made when first read).
   */
  constructor(
    private readonly pyramid: GreyPyramid,
    private readonly search: ZoneSearch,
    private readonly rec: LineRecognizer,
    private readonly limits: ReadLimits,
    private readonly text: () => GreyPyramid = () => pyramid,
  ) {}

  /** Whether the call budget is spent or the caller asked to stop. */
  exhausted(): boolean {
    return this.calls >= this.limits.maxCalls || this.limits.shouldStop();
  }

  private readonly layouts = new Map<ZoneCandidate, StripLine[]>();

  /** First lines that read as print the right way up, with that reading: other groups share such lines. */
  private readonly print: { line: StripLine; reading: CtcLine }[] = [];

  /** Whether a first line has read as print the right way up (in either direction of its group). */
  readPrint(): boolean {
    return this.print.length > 0;
  }

  /** The candidate's lines fitted to their text at full resolution, in reading order along `flip`. */
  private layout(candidate: ZoneCandidate, flip: boolean): StripLine[] {
    let lines = this.layouts.get(candidate);
    if (!lines) {
      // Each line refined within the whole group's extent; a line's own refined extent is then its own.
      const refined = layoutGroup(candidate.lines.map((i) => this.search.lines[i]!)).map((line) =>
        refineLine(this.pyramid, line),
      );
      lines = fitToGroup(this.pyramid, refined);
      this.layouts.set(candidate, lines);
    }
    return flip ? flipLayout(lines) : lines;
  }

  private recognise(line: StripLine, variant: Variant): Promise<CtcLine> {
    const key = [line.cx, line.cy, line.angle * 100, line.length, (line.bend?.c ?? 0) * 1e6]
      .map((v) => Math.round(v))
      // The cut exactly: two cuts of one line are two readings, never one reused.
      .concat([variant.strip, variant.fill, variant.stretch])
      .join('|');
    let pending = this.cache.get(key);
    if (!pending) {
      this.calls++;
      pending = this.rec.recognize(cutStrip(this.text(), line, variant.strip), MRZ_ALPHABET, {
        fill: variant.fill,
        stretch: variant.stretch,
        spareCore: this.limits.spareCore?.() ?? false,
      });
      this.cache.set(key, pending);
    }
    return pending;
  }

  /** Characters in the longest line of a candidate read with the first cut (already read, so free). */
  async longestFirstCut(candidate: ZoneCandidate, flip: boolean): Promise<number> {
    const lines = await Promise.all(this.layout(candidate, flip).map((l) => this.recognise(l, VARIANTS[0]!)));
    return Math.max(0, ...lines.map((l) => l.chars.length));
  }

  /**
   * Read the first line of a candidate (or the one at `index`) in one direction with the first cut: does it look
   * like MRZ text? Null, without reading, when a line is too long for its height to be an MRZ line.
   */
  async probe(candidate: ZoneCandidate, flip: boolean, index = 0): Promise<CtcLine | null> {
    if (this.exhausted()) return null;
    const searched = candidate.lines.map((i) => this.search.lines[i]!);
    if (searched.some((l) => l.length > SEARCH_ASPECT_SLACK * MAX_LINE_ASPECT * l.height)) return null;
    // A line of print already read, where the search placed it: its group is not fitted to learn so again.
    const placed = layoutGroup(searched);
    const early = (flip ? flipLayout(placed) : placed)[index];
    const known = early && this.print.find((p) => sameTextLine(p.line, early));
    if (known) return known.reading;
    const lines = this.layout(candidate, flip);
    // Lines of one zone share a type size: their mean height tells it (one line's may be measured a third short).
    const height = lines.reduce((sum, l) => sum + l.height, 0) / Math.max(1, lines.length);
    if (lines.some((l) => l.length > MAX_LINE_ASPECT * height)) return null;
    const first = lines[index];
    if (!first) return null;
    // A line of print seen as another group's first line: refitted a little differently, it would be read again.
    const seen = this.print.find((p) => sameTextLine(p.line, first));
    if (seen) return seen.reading;
    const reading = await this.recognise(first, VARIANTS[0]!);
    if (looksLikePrint(reading)) this.print.push({ line: first, reading });
    return reading;
  }

  /**
   * Read a candidate in one direction: each cut in turn until every check holds or the failing ones are read
   * surely, then, when neither, the OCR-B glyph classifier's second opinion voted with every cut; when still
   * neither and the first line read other characters before its document code, all of that again from the code
   * (see `startedAtCode`). Null when it does not read as an MRZ.
   */
  async read(candidate: ZoneCandidate, flip: boolean): Promise<Attempt | null> {
    const lines = this.layout(candidate, flip);
    const readings: CtcLine[][] = lines.map(() => []);
    const found = await this.readLines(lines, readings);
    if (found?.reading.valid || found?.settled || this.exhausted()) return found;
    // Ink before the zone (a picture's edge, a box drawn round it) taken for characters: read again from the code.
    const started = startedAtCode(this.text(), lines, readings[0]!);
    if (!started) return found;
    const again = await this.readLines(
      started,
      started.map(() => []),
    );
    return again && (!found || again.score > found.score) ? again : found;
  }

  /** Read laid-out lines (see `read`), each line's readings added to `readings`. */
  private async readLines(lines: StripLine[], readings: CtcLine[][]): Promise<Attempt | null> {
    const region = zoneBox(lines, this.pyramid.width, this.pyramid.height);
    let best: Attempt | null = null;
    for (const [k, variant] of VARIANTS.entries()) {
      if (readings[0]!.length > 0 && this.exhausted()) break;
      // The last cut only while under half the calls are spent: other zones of a hard page need them more.
      if (k === VARIANTS.length - 1 && this.calls >= this.limits.maxCalls / 2) break;
      const read = await Promise.all(lines.map((line) => this.recognise(line, variant)));
      // No line shows fillers at the first look, nor do the templates in small print: printed text, not an MRZ; other
      // cuts will not change that.
      if (
        readings[0]!.length === 0 &&
        !read.some((l) => showsFillers(l.text)) &&
        !this.templatesShowFillers(lines, read)
      )
        return null;
      // A line that reads nothing at all is blank paper (a third line guessed from the spacing of two).
      if (readings[0]!.length === 0 && read.some((l) => l.chars.length === 0)) return null;
      read.forEach((line, i) => readings[i]!.push(line));
      const attempt = interpret(readings, region);
      if (attempt && (!best || attempt.score > best.score)) best = attempt;
      // Names carry no check digit: a valid reading with gaps or unsure letters is read again with more cuts.
      if (best?.reading.valid && best.unsure === 0) return this.glyphOpinion(best, lines);
      // Every failing field read surely: a misprint, which another cut or the glyph classifier reads the same.
      if (best?.settled) return best;
    }
    if (best?.reading.valid) return this.glyphOpinion(best, lines);
    // A second opinion when no cut held: OCR-B templates on the line's fixed-pitch grid. They read what the
    // recogniser drops or mangles on small or soft print, and their reading joins the vote like another cut.
    const length = lineLengthOf(readings);
    const glyphs = lines.map((line) => this.glyphsOf(line, length));
    if (glyphs.some((g) => g === null)) return best;
    const attempt = interpretOnCells(readings, glyphs as CandidateChar[][], region);
    if (attempt && (!best || attempt.score > best.score)) best = attempt;
    if (!attempt || best?.reading.valid) return best;
    // Still failing: in small print the look-alikes of the failing fields are voted among themselves, where the
    // templates' reading of the whole alphabet was one opinion among many shapes (a small 8 matches S as well as B).
    let voted = attempt;
    for (const [index, line] of lines.entries()) {
      if (line.height >= SMALL_PRINT) continue;
      const judged = withGlyphLookAlikes(voted, index, failingLookAlikes(voted, index), glyphs[index]!);
      if (judged) voted = judged;
    }
    return voted.reading.valid && changedOnlyByVote(attempt, voted) ? voted : best;
  }

  /** The OCR-B templates' reading of a line's `length` cells, made once for one line and length. */
  private glyphsOf(line: StripLine, length: number): CandidateChar[] | null {
    const { bend } = line;
    const curve = bend ? [bend.a, bend.b, bend.c, bend.ox, bend.oy, bend.ux, bend.uy] : [];
    const key = [line.cx, line.cy, line.angle, line.length, line.height, ...curve, length].join('|');
    let cells = this.glyphCache.get(key);
    if (cells === undefined) {
      cells = classifyGlyphs(cutStrip(this.text(), line, GLYPH_STRIP), length);
      this.glyphCache.set(key, cells);
    }
    return cells;
  }

  private readonly glyphCache = new Map<string, CandidateChar[] | null>();

  /**
   * Whether a small-print line read with a run of what fillers look like there (see `FILLER_LIKE_RUN`) shows fillers
   * to the templates: small faint print reads most fillers as C, K or S, in a mix no rule takes for fillers.
   */
  private templatesShowFillers(lines: StripLine[], read: CtcLine[]): boolean {
    if (!read.some((l) => FILLER_LIKE_RUN.test(l.text))) return false;
    const length = lineLengthOf(read.map((l) => [l]));
    return lines.some((line) => line.height < SMALL_PRINT && this.lineShowsGlyphFillers(line, length));
  }

  /** Whether the templates read two fillers in a row among a line's `length` cells. */
  private lineShowsGlyphFillers(line: StripLine, length: number): boolean {
    const cells = this.glyphsOf(line, length);
    return cells !== null && showsGlyphFillers(cells);
  }

  /**
   * Which way a small-print candidate reads by the templates, when its first line read as found shows a run of what
   * fillers look like there (see `FILLER_LIKE_RUN`): false as found, true turned half round, null when they show
   * fillers either way or neither. The templates read a turned line's fillers as other shapes.
   */
  async templateDirection(candidate: ZoneCandidate): Promise<boolean | null> {
    const ahead = await this.probe(candidate, false);
    if (!ahead || !FILLER_LIKE_RUN.test(ahead.text)) return null;
    const lines = this.layout(candidate, false);
    const first = lines[0];
    if (!first || first.height >= SMALL_PRINT) return null;
    const length = lineLengthOf(lines.map(() => [ahead]));
    const upright = this.lineShowsGlyphFillers(first, length);
    const turned = this.lineShowsGlyphFillers(flipLayout(lines)[0]!, length);
    return upright === turned ? null : turned;
  }

  /**
   * A valid reading with characters the checks cannot vouch for: characters that may be fillers (see `fillerDoubts`
   * on the name line, `freeFillerDoubts` elsewhere), and in small print (see `SMALL_PRINT`) look-alikes (see
   * `lookAlikePositions`: a name's M, N, H and W, which no check digit covers; a document number's B and 8, Z and 2,
   * where exchanging two can keep its check digit); at any size, a name's M, N, H and W read unsurely. The OCR-B
   * glyph classifier reads those lines' cells, decides the fillers and votes on the look-alikes. No recogniser call;
   * each judgement is taken only when the reading stays valid.
   */
  private glyphOpinion(best: Attempt, lines: StripLine[]): Attempt {
    const name = nameField(best.reading.format).line;
    let out = best;
    for (const [index, line] of lines.entries()) {
      const small = line.height < SMALL_PRINT;
      const doubts = index === name ? fillerDoubts(out, small) : freeFillerDoubts(out, index, small);
      // At any size, a name's M, N, H and W read unsurely, another of them a runner-up: a blur along the line (a
      // shaken camera) runs an M's strokes together into a W or an N.
      const alikeOf = (attempt: Attempt): number[] =>
        small
          ? lookAlikePositions(attempt, index)
          : index === name
            ? lookAlikePositions(attempt, index).filter((i) =>
                unsureNameLetter(attempt.basis.fitted[index]?.[i]),
              )
            : [];
      const alike = alikeOf(out);
      if (doubts.positions.length === 0 && alike.length === 0) continue;
      // The cells up to the last one in doubt and one past it (an anchor for the alignment): names end early.
      const count = Math.max(...doubts.positions, ...alike) + 2;
      const cells = classifyGlyphs(
        cutStrip(this.text(), line, GLYPH_STRIP),
        out.reading.lines[index]!.length,
        {
          count,
          ...(index === name ? { alphabet: NAME_LINE } : {}),
        },
      );
      if (!cells) continue;
      const fillers = withGlyphFillers(out, doubts, cells);
      if (fillers?.reading.valid) out = fillers;
      const voted = alike.length > 0 ? withGlyphLookAlikes(out, index, alikeOf(out), cells, !small) : null;
      if (voted?.reading.valid) out = voted;
    }
    return out;
  }
}

/**
 * Whether a name's letter with look-alikes (see `lookAlikesOf`: M, N, H, W) is read unsurely, with another of them
 * among its runners-up: the templates then decide between them (a letter read surely, or with nothing alike behind
 * it, costs no template).
 */
function unsureNameLetter(read: CandidateChar | undefined): boolean {
  if (!read || read.prob >= CERTAIN) return false;
  const alike = lookAlikesOf(read.char, true);
  return alike.length > 1 && read.alternatives.some((a) => a.char !== read.char && alike.includes(a.char));
}

/** Document codes an MRZ's first line may begin with: every format's (passports, identity cards, visas). */
const DOCUMENT_CODES = Object.values(LAYOUTS)
  .map((layout) => layout.codes)
  .join('');

/** Characters a line's reading must hold from its document code on: a TD1 line's, two of them dropped. */
const MIN_CODED_LINE = 28;

/**
 * The zone's lines begun at the first line's document code, when its reading has other characters before it: ink
 * beside the zone (a picture's edge, a box drawn round the MRZ, a pattern) that the line's fit took for characters.
 * The code is a document code letter, a type (letter or filler) and a listed issuing state, with at least a short
 * line's characters after it. Every line of an MRZ starts at one column, so all begin there; their ends are kept.
 * Null when the reading starts with its code, or has none.
 */
export function startedAtCode(
  pyramid: GreyPyramid,
  lines: StripLine[],
  firsts: readonly CtcLine[],
): StripLine[] | null {
  const line = lines[0];
  if (!line) return null;
  for (const { chars, columns } of firsts) {
    if (!columns) continue;
    // Digits read for letters there (a country read `UT0`) read as the letters they look like.
    const text = asLetters(chars.map((c) => c.char).join(''));
    const codeAt = (k: number): boolean =>
      DOCUMENT_CODES.includes(text[k] ?? '') &&
      /^[A-Z<]$/.test(text[k + 1] ?? '') &&
      isIcaoCountryCode(text.slice(k + 2, k + 5));
    if (codeAt(0)) return null;
    let k = 1;
    while (k <= chars.length - MIN_CODED_LINE && !codeAt(k)) k++;
    if (k > chars.length - MIN_CODED_LINE) continue;
    // Half a pitch before the code's centre, the pitch measured over the characters after it.
    const frames = chars.slice(k, k + MIN_CODED_LINE).map((c) => c.frame);
    const pitch = ((frames.at(-1)! - frames[0]!) / (frames.length - 1)) * columns.step;
    const start = alongStrip(pyramid, line, columns.origin + chars[k]!.frame * columns.step - pitch / 2);
    const ux = Math.cos(line.angle);
    const uy = Math.sin(line.angle);
    return lines.map((l) => {
      // Where this line starts along the first line's direction, from the first line's centre.
      const cut = start - ((l.cx - line.cx) * ux + (l.cy - line.cy) * uy - l.length / 2);
      if (cut <= 0 || cut >= l.length) return l;
      return { ...l, cx: l.cx + (cut / 2) * ux, cy: l.cy + (cut / 2) * uy, length: l.length - cut };
    });
  }
  return null;
}

/**
 * Whether two fitted lines are one line of text read the same way: one direction, heights within a quarter, centres
 * within half a text height across the line and their extents overlapping along it.
 */
function sameTextLine(a: StripLine, b: StripLine): boolean {
  if (Math.cos(a.angle - b.angle) < Math.cos(0.05)) return false;
  if (Math.max(a.height, b.height) > 1.25 * Math.min(a.height, b.height)) return false;
  const along = Math.abs((b.cx - a.cx) * Math.cos(a.angle) + (b.cy - a.cy) * Math.sin(a.angle));
  return Math.abs(across(a, b)) <= Math.min(a.height, b.height) / 2 && along < (a.length + b.length) / 2;
}
