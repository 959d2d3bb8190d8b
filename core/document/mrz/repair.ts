import { isCheckDigitValid } from './check-digit.js';
import { isIcaoCountryCode } from './countries.js';
import {
  checkGroupsOf,
  LAYOUTS,
  textOf,
  type CheckGroup,
  type MrzFormat,
  type MrzLayout,
  type Span,
} from './layout.js';
import { isCalendarDate, isDateField, isDocumentCodeValid } from './validate.js';

/** One recognised position: the best character, its probability and the recogniser's runner-ups. */
export interface CandidateChar {
  char: string;
  prob: number;
  alternatives: { char: string; prob: number }[];
}

/** OCR-B look-alikes: what a letter may really be in a digit field, and the reverse. */
const TO_DIGIT: Record<string, string> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '1',
  L: '1',
  T: '1',
  Z: '2',
  S: '5',
  B: '8',
  G: '6',
  A: '4',
  E: '8',
};
const TO_LETTER: Record<string, string> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '4': 'A',
  '5': 'S',
  '6': 'G',
  '7': 'T',
  '8': 'B',
};
/** Text with each digit that looks like a letter read as that letter (a country code read `UT0`). */
export function asLetters(text: string): string {
  return Array.from(text, (c) => TO_LETTER[c] ?? c).join('');
}

/** Look-alikes within one class (letters misread as letters, digits as digits, K as the filler). */
const SIMILAR: Record<string, string[]> = {
  K: ['<'],
  '<': ['K', 'E', 'C'],
  X: ['K'],
  M: ['N', 'H', 'W'],
  N: ['M', 'H', 'W'],
  W: ['N', 'M'],
  H: ['M', 'N'],
  C: ['G', 'O'],
  G: ['C', 'O', '6'],
  O: ['D', 'Q', 'C', '0'],
  D: ['O', '0'],
  E: ['F'],
  F: ['E', 'P'],
  P: ['F', 'R'],
  R: ['P', 'B'],
  V: ['Y', 'U'],
  Y: ['V'],
  U: ['V', 'O'],
  '0': ['8', '6', '9', 'O', 'D', 'Q'],
  '8': ['0', '6', '3', '9', '5', 'B'],
  '6': ['8', '5', '0', 'G'],
  '5': ['6', '3', 'S'],
  '3': ['8', '5'],
  '9': ['8', '0'],
  '1': ['7', '4', 'I'],
  '7': ['1', 'T'],
  '4': ['1', 'A'],
  '2': ['Z'],
  B: ['8', 'R'],
  S: ['5'],
  I: ['1', 'T'],
  Z: ['2'],
  T: ['7', 'I'],
  A: ['4'],
  Q: ['O', '0'],
};
/** Whether two characters are OCR-B look-alikes (either way, across classes or within one). */
export function areLookAlikes(a: string, b: string): boolean {
  return (
    TO_DIGIT[a] === b ||
    TO_DIGIT[b] === a ||
    TO_LETTER[a] === b ||
    TO_LETTER[b] === a ||
    (SIMILAR[a]?.includes(b) ?? false) ||
    (SIMILAR[b]?.includes(a) ?? false)
  );
}

/** Prior probability given to a look-alike the recogniser did not propose itself. */
const LOOKALIKE_PRIOR = 0.02;
/**
 * A character read at least this clearly is kept: repair must not turn a clean filler run into data, nor the
 * templates a clean name letter into its look-alike.
 */
export const CERTAIN = 0.97;
/** From this probability a character counts as read for sure: only a change the recogniser backs may overrule it. */
const SURE = 0.9;
/** Below this probability a country-code letter may be replaced by a look-alike that makes an ICAO code. */
const UNSURE = 0.9;
/** At or below this probability a position was not seen by the recogniser (see fitLineLength). */
const UNSEEN = 0.05;
/** Probability from which a recogniser's alternative counts as evidence for a change. */
const EVIDENCE = 0.05;
/** Log-probability lead the best repair needs over the next to be taken when several satisfy the check. */
const CLEAR_MARGIN = 1;
/** Positions tried two at a time when no single change repairs a check digit. */
const PAIR_POSITIONS = 10;

function allowedBy(cls: string, char: string): boolean {
  switch (cls) {
    case 'N':
      return /[0-9]/.test(char);
    case 'C':
      return /[0-9<]/.test(char);
    case 'A':
      return /[A-Z<]/.test(char);
    case 'S':
      return /[MFX<]/.test(char);
    default:
      return /[A-Z0-9<]/.test(char);
  }
}

/** Characters a position may hold instead of its best reading, most likely first, all allowed by its class. */
function optionsOf(candidate: CandidateChar, cls: string): { char: string; prob: number }[] {
  const seen = new Map<string, number>();
  const add = (char: string | undefined, prob: number): void => {
    if (char && allowedBy(cls, char) && prob > (seen.get(char) ?? 0)) seen.set(char, prob);
  };
  add(candidate.char, candidate.prob);
  for (const alt of candidate.alternatives) add(alt.char, alt.prob);
  const mapped =
    cls === 'N' || cls === 'C'
      ? TO_DIGIT[candidate.char]
      : cls === 'A'
        ? TO_LETTER[candidate.char]
        : undefined;
  add(mapped, Math.max(LOOKALIKE_PRIOR, candidate.prob * 0.5));
  for (const similar of SIMILAR[candidate.char] ?? []) add(similar, LOOKALIKE_PRIOR);
  if (cls === 'S') for (const sex of ['M', 'F', '<']) add(sex, LOOKALIKE_PRIOR / 2);
  return [...seen.entries()].map(([char, prob]) => ({ char, prob })).sort((a, b) => b.prob - a.prob);
}

type Grid = string[][];

/** Limits of one repair: keep letters read above `keepAbove`, ignore options below `minOption`, try pairs (country codes only) or not. */
interface FixRules {
  keepAbove?: number;
  minOption?: number;
  pairs?: boolean;
}

/** A check group's positions, its fields' and its digit's, as [line, position]. */
export function positionsOf(group: CheckGroup): [number, number][] {
  const out: [number, number][] = [];
  for (const s of group.spans) for (let i = s.start; i < s.end; i++) out.push([s.line, i]);
  out.push([group.digit.line, group.digit.pos]);
  return out;
}

function groupValid(grid: Grid, group: CheckGroup): boolean {
  const lines = grid.map((l) => l.join(''));
  return isCheckDigitValid(textOf(lines, group.spans), lines[group.digit.line]?.[group.digit.pos] ?? '');
}

/** Where the name field lies: line, first position and end (exclusive). */
export function nameField(format: MrzFormat): { line: number; start: number; end: number } {
  if (format === 'TD1') return { line: 2, start: 0, end: 30 };
  // The French ID card's surname field stops before its administrative code.
  if (format === 'FRENCH_ID') return { line: 0, start: 5, end: 30 };
  return { line: 0, start: 5, end: LAYOUTS[format].lineLength };
}

/**
 * A name field holds the primary identifier, `<<`, the secondary identifier (parts joined by single fillers),
 * then fillers only (ICAO 9303-3). Its shape is found with each letter the recogniser offered a filler for taken
 * as one (small print reads `<` as C, K or S), and the `<<` so found is made fillers. In the trailing run, lone
 * letters (one or two) become fillers again, and so does a longer run without a vowel or whose every letter was
 * offered as a filler; a longer run read without that doubt is left as read (a name part after a filler misread).
 */
function clearNameTail(grid: Grid, format: MrzFormat, offered: FillerLike): void {
  const { line, start, end: fieldEnd } = nameField(format);
  const row = grid[line];
  if (!row) return;
  const field = row.slice(start, fieldEnd).join('');
  const doubted = (k: number): boolean => field[k] === '<' || offered(line, start + k);
  const shape = Array.from(field, (c, k) => (doubted(k) ? '<' : c)).join('');
  const first = shape.indexOf('<<');
  if (first < 1) return;
  let after = first;
  while (shape[after] === '<') after++;
  // A `<<` read there is the separator, and a letter beside it in doubt a name's (NOVAK<<, K offered as `<`).
  const read = field.slice(first, after).indexOf('<<');
  const separator = read >= 0 ? first + read : first;
  row[start + separator] = '<';
  row[start + separator + 1] = '<';
  const secondary = separator + 2;
  const end = shape[secondary] === '<' ? secondary : shape.indexOf('<<', secondary + 1);
  if (end < 0) return;
  for (let k = end; k < field.length;) {
    if (field[k] === '<') {
      k++;
      continue;
    }
    let run = k;
    while (run < field.length && field[run] !== '<') run++;
    const letters = field.slice(k, run);
    const allDoubted = Array.from(letters).every((_, j) => doubted(k + j));
    if (run - k <= 2 || !/[AEIOUY]/.test(letters) || allDoubted)
      for (let j = k; j < run; j++) row[start + j] = '<';
    k = run;
  }
}

/**
 * Five or more of one letter in a row: a run no word has, fillers misread (small print reads `<` as `C`, a line
 * printed across it as `K`).
 */
const LETTER_RUN = /([A-Z])\1{4,}/g;

/** What small or blurred print makes of a filler: its two strokes read as the diagonal and bar of a `4`. */
const FILLER_READ = '4';

/** Five or more `FILLER_READ` in a row: what blurred fillers make of a field's padding, and no number holds. */
const FILLER_READ_RUN = new RegExp(`${FILLER_READ}{5,}`);

/** A run of one letter (see `LETTER_RUN`) or of `FILLER_READ` (see `FILLER_READ_RUN`): a filler run misread. */
const MISREAD_RUN = new RegExp(`${LETTER_RUN.source}|${FILLER_READ_RUN.source}`);

/**
 * Single fillers in one line that show fillers without a pair of them: soft or small print reads most `<` as `C`, `S`
 * or `4`, and a name line keeps a few. Print read with the MRZ alphabet rarely shows one.
 */
const FILLERS_APART = 3;

/**
 * Whether a line read shows fillers: a pair of them, a run that can only be fillers misread, or `FILLERS_APART`
 * single ones.
 */
export function showsFillers(text: string): boolean {
  return text.includes('<<') || hasMisreadRun(text) || (text.match(/</g)?.length ?? 0) >= FILLERS_APART;
}

/** Whether a line read has five or more fillers in a row, or a run of them misread. */
export function hasFillerRun(text: string): boolean {
  return text.includes('<<<<<') || hasMisreadRun(text);
}

/** Whether a line read has a run that can only be fillers misread (see `MISREAD_RUN`). */
export function hasMisreadRun(text: string): boolean {
  return MISREAD_RUN.test(text);
}

/**
 * Runs of one letter (see `LETTER_RUN`) where fillers may stand become fillers again. K and `<` weigh alike in a
 * check digit (20 and 0), so only this rule, not the checks, can tell such a run from data.
 */
function clearLetterRuns(grid: Grid, classes: readonly string[]): void {
  grid.forEach((row, l) => {
    for (const run of row.join('').matchAll(LETTER_RUN)) {
      const from = run.index;
      const to = from + run[0].length;
      const kinds = classes[l]?.slice(from, to) ?? '';
      if (/^[AX]+$/.test(kinds)) row.fill('<', from, to);
    }
  });
}

/** Whether the recogniser offered a filler for a position, as a runner-up it backs (see `EVIDENCE`). */
export function offersFiller(candidate: CandidateChar | undefined): boolean {
  return candidate?.alternatives.some((a) => a.char === '<' && a.prob >= EVIDENCE) ?? false;
}

/** Whether a position read as something else may be a filler: a usual misreading, or one the recogniser offered. */
type FillerLike = (line: number, pos: number) => boolean;

/**
 * The readings of a failing group in which a field's end, read as fillers and characters that may be fillers
 * (see `FillerLike`), is fillers from one such character on: fields are left-justified and padded with fillers
 * (ICAO 9303-3), so only readings whose field is then a value and fillers after it count. Only free-text positions
 * (class X) count, and in a field without a check digit of its own (optional data under the composite) only
 * characters after a filler.
 */
function fillerTails(
  grid: Grid,
  layout: MrzLayout,
  group: CheckGroup,
  own: boolean,
  fillerLike: FillerLike,
): [number, number][][] {
  const out: [number, number][][] = [];
  for (const span of group.spans) {
    const row = grid[span.line];
    const classes = layout.classes[span.line] ?? '';
    if (!row) continue;
    const misread = (i: number): boolean => row[i] !== '<' && fillerLike(span.line, i);
    let start = span.end;
    while (start > span.start && classes[start - 1] === 'X' && (row[start - 1] === '<' || misread(start - 1)))
      start--;
    for (let k = start; k < span.end; k++) {
      if (!misread(k) || (!own && !row.slice(start, k).includes('<'))) continue;
      // A filler before a character kept: not a left-justified value and its padding.
      if (/<[^<]/.test(row.slice(span.start, k).join(''))) continue;
      const positions: [number, number][] = [];
      for (let i = k; i < span.end; i++) if (misread(i)) positions.push([span.line, i]);
      out.push(positions);
    }
  }
  return out;
}

/**
 * Put back fillers a failing group's field end was read with (see `fillerTails`): the one such reading that makes
 * the group's check digit and the composite over it (where the format has one) hold is taken; none when several
 * do. One hypothesis about the whole end, not a search over positions. A group that holds as read keeps its reading,
 * unless a span ends in a run of `FILLER_READ` (see `FILLER_READ_RUN`): that end is read as fillers when they hold too,
 * since `44` at weights 7 and 3 adds 40 to a sum and such a run holds as often as not.
 */
function restoreFillerTails(
  grid: Grid,
  layout: MrzLayout,
  group: CheckGroup,
  fillerLike: FillerLike,
  composite?: CheckGroup,
): void {
  const checks = composite && composite !== group ? [group, composite] : [group];
  const holds = (positions: [number, number][]): boolean => {
    const saved = positions.map(([l, i]) => grid[l]![i]!);
    for (const [l, i] of positions) grid[l]![i] = '<';
    const ok = checks.every((g) => groupValid(grid, g));
    positions.forEach(([l, i], k) => (grid[l]![i] = saved[k]!));
    return ok;
  };
  const tails = (): [number, number][][] => fillerTails(grid, layout, group, group !== composite, fillerLike);
  if (groupValid(grid, group)) {
    const runs = group.spans.filter((s) =>
      FILLER_READ_RUN.test((grid[s.line] ?? []).slice(s.start, s.end).join('')),
    );
    if (runs.length === 0) return;
    // The longest end that clears every run: a shorter one would leave part of a run read as data.
    const clearing = tails()
      .filter((positions) => runs.every((s) => clearsRun(grid, s, positions)))
      .sort((a, b) => b.length - a.length)[0];
    if (clearing && holds(clearing)) for (const [l, i] of clearing) grid[l]![i] = '<';
    return;
  }
  const holding = tails().filter(holds);
  if (holding.length === 1) for (const [l, i] of holding[0]!) grid[l]![i] = '<';
}

/** Whether a span's text, with `positions` made fillers, no longer holds a run of `FILLER_READ`. */
function clearsRun(grid: Grid, span: Span, positions: readonly [number, number][]): boolean {
  const row = (grid[span.line] ?? []).slice();
  for (const [l, i] of positions) if (l === span.line) row[i] = '<';
  return !FILLER_READ_RUN.test(row.slice(span.start, span.end).join(''));
}

/**
 * Repair recognised MRZ lines of a known format: force each position into its character class (digits in
 * dates, letters in names and codes), then for each failing check digit or unknown country code try the
 * recogniser's alternatives and the usual OCR-B look-alikes (0/O, 1/I, 5/S, 8/B, 2/Z, 6/G, K/<), one position
 * at a time (two for a country code, which has no check digit to fool). A repair is made only when it is unambiguous: the only change that makes the
 * rule hold, or one the recogniser backs clearly more than any other (see `CLEAR_MARGIN`).
 */
export function repairMrz(format: MrzFormat, candidates: readonly (readonly CandidateChar[])[]): string[] {
  const layout = LAYOUTS[format];
  const options = candidates.map((line, l) =>
    line.map((c, i) => optionsOf(c, layout.classes[l]?.[i] ?? 'X')),
  );
  const grid: Grid = candidates.map((line, l) => line.map((c, i) => options[l]?.[i]?.[0]?.char ?? c.char));
  const probOf = (l: number, i: number, char: string): number =>
    options[l]?.[i]?.find((o) => o.char === char)?.prob ?? 1e-4;

  const tryFix = (positions: [number, number][], holds: () => boolean, rules: FixRules = {}): void => {
    if (holds()) return;
    // A character put back where the recogniser saw nothing is unknown: any change elsewhere in the field
    // could compensate it, so the check digit would vouch for a guess. Such a field stays as read (and fails).
    if (positions.some(([l, i]) => (candidates[l]?.[i]?.prob ?? 0) <= UNSEEN)) return;
    const { keepAbove = 1, minOption = 0, pairs = false } = rules;
    const ranked = positions
      .filter(([l, i]) => grid[l]?.[i] !== '<' || (candidates[l]?.[i]?.prob ?? 0) < CERTAIN)
      .filter(([l, i]) => (candidates[l]?.[i]?.prob ?? 0) < keepAbove)
      .map(([l, i]) => ({
        l,
        i,
        alts: (options[l]?.[i] ?? []).filter((o) => o.char !== grid[l]?.[i] && o.prob >= minOption),
      }))
      .filter((p) => p.alts.length > 0);
    type Change = { l: number; i: number; char: string };
    const found: { changes: Change[]; score: number; evidence: boolean; overrules: boolean }[] = [];
    const consider = (changes: Change[]): void => {
      const saved = changes.map((c) => grid[c.l]![c.i]!);
      for (const c of changes) grid[c.l]![c.i] = c.char;
      if (holds()) {
        const score = changes.reduce(
          (s, c, k) => s + Math.log(probOf(c.l, c.i, c.char)) - Math.log(probOf(c.l, c.i, saved[k]!)),
          0,
        );
        found.push({
          changes,
          score,
          evidence: changes.every((c) => probOf(c.l, c.i, c.char) >= EVIDENCE),
          overrules: changes.some(
            (c) => probOf(c.l, c.i, c.char) < EVIDENCE && (candidates[c.l]?.[c.i]?.prob ?? 0) >= SURE,
          ),
        });
      }
      changes.forEach((c, k) => (grid[c.l]![c.i] = saved[k]!));
    };
    for (const p of ranked) for (const a of p.alts) consider([{ l: p.l, i: p.i, char: a.char }]);
    if (found.length === 0 && pairs) {
      // Two changes satisfy a mod-10 check too easily: only characters the recogniser itself hesitated over.
      const hesitant = ranked
        .map((p) => ({ ...p, alts: p.alts.filter((a) => a.prob >= EVIDENCE) }))
        .filter((p) => p.alts.length > 0)
        .sort((a, b) => probOf(a.l, a.i, grid[a.l]![a.i]!) - probOf(b.l, b.i, grid[b.l]![b.i]!))
        .slice(0, PAIR_POSITIONS);
      for (let x = 0; x < hesitant.length; x++) {
        for (let y = x + 1; y < hesitant.length; y++) {
          const p = hesitant[x]!;
          const q = hesitant[y]!;
          for (const a of p.alts)
            for (const b of q.alts)
              consider([
                { l: p.l, i: p.i, char: a.char },
                { l: q.l, i: q.i, char: b.char },
              ]);
        }
      }
    }
    found.sort((a, b) => b.score - a.score);
    const [best, runnerUp] = found;
    // A repair is taken when it is the only one, or the recogniser backs it clearly more than any other:
    // among several equally blind guesses, the check digit cannot tell which is right, so none is made.
    // A blind look-alike never overrules a character the recogniser was sure of (a forged check digit
    // would otherwise be "repaired" by the one look-alike that happens to fit it).
    const clear =
      best &&
      !best.overrules &&
      (!runnerUp || (best.evidence && best.score - runnerUp.score >= CLEAR_MARGIN));
    for (const c of clear ? best.changes : []) grid[c.l]![c.i] = c.char;
  };

  for (const country of layout.countries) {
    const positions: [number, number][] = [0, 1, 2].map((k) => [country.line, country.start + k]);
    // Specimens use fictitious states (CMW): only unsure letters may change to make a code ICAO knows.
    tryFix(
      positions,
      () => isIcaoCountryCode((grid[country.line] ?? []).slice(country.start, country.start + 3).join('')),
      { keepAbove: UNSURE, pairs: true },
    );
  }
  const lines = (): string[] => grid.map((l) => l.join(''));
  // The document code's first letter is the format's (P, V; A, C or I): only an unsure letter may change to one.
  tryFix([[0, 0]], () => isDocumentCodeValid(format, lines()), { keepAbove: UNSURE });
  // Runs of one letter first: the fillers they give back show where a name ends.
  clearLetterRuns(grid, layout.classes);
  const offered: FillerLike = (l, i) => offersFiller(candidates[l]?.[i]);
  clearNameTail(grid, format, offered);
  // The document code's second character is the issuer's choice, and most often a filler: one the recogniser
  // offered is taken. The French card's code is its own (ID).
  const code = grid[0];
  if (format !== 'FRENCH_ID' && code && code[1] !== '<' && offered(0, 1)) code[1] = '<';
  const groups = checkGroupsOf(layout, lines());
  const composite = groups.find((g) => g.name === 'composite');
  for (const group of groups) {
    if (group === composite) continue;
    // One change per field: two changes can keep a 7-3-1 sum (3→1 with 1→7) and the composite, which weighs
    // the field's characters alike, cannot see it; such a pair would be a guess the checks then vouch for.
    // A date field's repair must also leave a calendar date: of two changes that mend its check digit, month 13's
    // is no candidate.
    const holds = isDateField(group)
      ? () => groupValid(grid, group) && isCalendarDate(textOf(lines(), group.spans))
      : () => groupValid(grid, group);
    tryFix(positionsOf(group), holds);
  }
  const fillerLike: FillerLike = (l, i) => grid[l]?.[i] === FILLER_READ || offered(l, i);
  for (const group of groups) restoreFillerTails(grid, layout, group, fillerLike, composite);
  if (composite) {
    // Only positions no other check digit vouches for (optional data, the composite digit) may change now.
    const covered = new Set(
      groups.filter((g) => g !== composite).flatMap((g) => positionsOf(g).map(([l, i]) => `${l}:${i}`)),
    );
    const free = positionsOf(composite).filter(([l, i]) => !covered.has(`${l}:${i}`));
    // Optional data has no check digit of its own: a look-alike guess there could satisfy any composite, so
    // only one change the recogniser itself proposed is allowed (a specimen whose composite is wrong stays wrong).
    tryFix(free, () => groupValid(grid, composite), { minOption: LOOKALIKE_PRIOR * 2, pairs: false });
  }
  return lines();
}
