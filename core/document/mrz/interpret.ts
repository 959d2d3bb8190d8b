import type { CtcLine } from '../ocr/ctc.js';
import { alignToCells } from './glyphs.js';
import { isCheckDigitValid } from './check-digit.js';
import {
  checkGroupsOf,
  formatOf,
  LAYOUTS,
  textOf,
  type CheckGroup,
  type MrzFormat,
  type Span,
} from './layout.js';
import { fitLineLength } from './line-length.js';
import {
  nameField,
  offersFiller,
  positionsOf,
  repairMrz,
  showsFillers,
  type CandidateChar,
} from './repair.js';
import type { MrzReading } from './types.js';
import { validateMrzLines } from './validate.js';
import { voteLines } from './vote.js';

/** Mean character probability below which a line's repaired check digits are not trusted. */
const MIN_LINE_CONFIDENCE = 0.5;

/** A reading of one group of lines and how much of it holds. */
export interface Attempt {
  reading: Omit<MrzReading, 'ms'>;
  score: number;
  /** Positions no cut read surely: gaps the length fit filled, or characters read below `SURE`. */
  unsure: number;
  /**
   * Some check fails, and every one that fails was read surely by the cuts so far (see `SETTLED`): the reading is
   * what is printed, and more looks at the same lines will not change it.
   */
  settled: boolean;
  /** What the reading was judged from: the voted lines, their confidences and whether they fit their length. */
  basis: { fitted: CandidateChar[][]; confidences: number[]; fits: boolean };
}

/** Voted probability below which a position counts as unsure (a filled gap has 0.05). */
const SURE = 0.3;

/**
 * Voted probability from which a character is settled. Read this surely by one cut, it is what the print shows: the
 * other cut differs only in margin and squeeze and reads it alike. Voted this surely by two, one more vote for a
 * rival (the glyph classifier) cannot outweigh them.
 */
const SETTLED = 0.8;

/** Whether every character of the spans was voted at `SETTLED` or more. */
function isSure(fitted: readonly CandidateChar[][], spans: readonly Span[]): boolean {
  return spans.every((s) => {
    for (let i = s.start; i < s.end; i++) if ((fitted[s.line]?.[i]?.prob ?? 0) < SETTLED) return false;
    return true;
  });
}

/**
 * Whether exchanging one O for 0 (or 0 for O) in the group's fields makes its check digit hold: OCR-B's O and 0
 * differ by a hair, and the recogniser picks one surely either way, so such a failure is a misreading to look at
 * again, not a misprint.
 */
function failsByZeroOrOh(lines: readonly string[], group: CheckGroup): boolean {
  const text = textOf(lines, group.spans);
  const digit = lines[group.digit.line]?.[group.digit.pos] ?? '';
  return Array.from(text).some((c, i) => {
    if (c !== '0' && c !== 'O') return false;
    return isCheckDigitValid(text.slice(0, i) + (c === '0' ? 'O' : '0') + text.slice(i + 1), digit);
  });
}

/**
 * Whether the checks that fail were read as printed: every character of each failing field (a failing check
 * digit's own field, else the composite's, or a failing country code) voted surely, and no O/0 exchange would
 * make a failing check digit hold.
 */
function failsAsPrinted(
  format: MrzFormat,
  lines: readonly string[],
  fitted: readonly CandidateChar[][],
  failed: ReadonlySet<string>,
): boolean {
  const layout = LAYOUTS[format];
  const groups = checkGroupsOf(layout, lines).filter((g) => failed.has(`${g.name}CheckDigit`));
  // The composite covers the other fields: when one of them fails too, that one is where the doubt lies.
  const own = groups.filter((g) => g.name !== 'composite');
  const suspects = own.length > 0 ? own : groups;
  const spans = suspects.flatMap((g) => [
    ...g.spans,
    { line: g.digit.line, start: g.digit.pos, end: g.digit.pos + 1 },
  ]);
  const countries = layout.countries
    .filter((c) => failed.has(`${c.name}Code`))
    .map((c) => ({ line: c.line, start: c.start, end: c.start + 3 }));
  return isSure(fitted, [...spans, ...countries]) && !suspects.some((g) => failsByZeroOrOh(lines, g));
}

/** The MRZ line length of a group's readings (30 for three lines, else 36 or 44 by the longest reading). */
export function lineLengthOf(readings: readonly CtcLine[][]): number {
  if (readings.length === 3) return 30;
  const longest = Math.max(...readings.flat().map((l) => l.chars.length));
  return longest > 40 ? 44 : 36;
}

/**
 * Interpret the readings of a group (per line, one reading per cut): fit each to the format's length, vote
 * the cuts position by position, repair and validate. Null when they do not look like an MRZ.
 */
export function interpret(readings: CtcLine[][], region: MrzReading['region']): Attempt | null {
  const all = readings.flat();
  // The recogniser drops characters far more often than it invents them: the longest reading tells the format.
  const longest = Math.max(...all.map((l) => l.chars.length));
  const length = lineLengthOf(readings);
  if (longest < length * 0.8 || longest > length * 1.25) return null;
  if (!all.some((l) => showsFillers(l.text))) return null;
  // Readings far off the length would vote out of step: use them only when nothing better exists. The lines'
  // confidences are those of the readings that voted (a cut that read a few characters of noise is not a doubt).
  const voters = readings.map((line) => {
    const close = line.filter((r) => isNearLength(r, length));
    return close.length ? close : line;
  });
  const fitted = voters.map((line) => voteLines(line.map((r) => fitLineLength(r.chars, length))));
  const confidences = voters.map(
    (line) => line.reduce((s, r) => s + r.confidence, 0) / Math.max(1, line.length),
  );
  return judge(fitted, confidences, region, fitsLength(readings, length));
}

/** Whether a reading is within two characters of the format's line length (the recogniser drops one or two). */
function isNearLength(reading: CtcLine, length: number): boolean {
  return Math.abs(reading.chars.length - length) <= 2;
}

/**
 * Whether every line was read, by some cut, at about the format's length: lines of another format forced into
 * this one (a card's 30 characters read as 36) are gaps and smears, however surely each cut read them.
 */
function fitsLength(readings: readonly CtcLine[][], length: number): boolean {
  return readings.every((line) => line.some((r) => isNearLength(r, length)));
}

/**
 * Whether the OCR-B templates read two fillers in a row in a line's cells: they see a small faint filler's shape where
 * the recogniser reads a C, K or S.
 */
export function showsGlyphFillers(cells: readonly CandidateChar[]): boolean {
  return cells.some((c, i) => c.char === '<' && cells[i + 1]?.char === '<');
}

/**
 * Interpret the readings of a group on the cells the glyph classifier found: every recognised line, however
 * many characters it dropped, is aligned onto the cells, and the glyph reading votes beside them with as much
 * weight as all of them together. The cuts are one model's readings of one strip and share its mistakes (in a
 * run of digits it reads a small B as 8), so they are one opinion; the templates, which judge each cell alone,
 * are another.
 */
export function interpretOnCells(
  readings: CtcLine[][],
  glyphs: CandidateChar[][],
  region: MrzReading['region'],
): Attempt | null {
  if (!readings.flat().some((l) => showsFillers(l.text)) && !glyphs.some(showsGlyphFillers)) return null;
  // A reading that dropped over half the cells is not placed on them, nor counted in its line's confidence.
  const voters = readings.map((line, i) =>
    line.filter((r) => r.chars.length >= (glyphs[i]?.length ?? 0) / 2),
  );
  const fitted = voters.map((line, i) => {
    const cells = glyphs[i] ?? [];
    const cuts = line.map((r) => alignToCells(r.chars, cells));
    return voteLines([...cuts, cells], [...cuts.map(() => 1), Math.max(1, cuts.length)]);
  });
  const confidences = voters.map((line, i) => {
    const cells = glyphs[i] ?? [];
    const glyph = cells.reduce((s, c) => s + c.prob, 0) / Math.max(1, cells.length);
    return (line.reduce((s, r) => s + r.confidence, 0) + glyph) / (line.length + 1);
  });
  return judge(fitted, confidences, region, fitsLength(readings, glyphs[0]?.length ?? 0));
}

/**
 * Repair and validate voted lines; `confidences` are the lines' mean character probabilities, `fits` whether the
 * lines were read at their format's length.
 */
function judge(
  fitted: CandidateChar[][],
  confidences: number[],
  region: MrzReading['region'],
  fits: boolean,
): Attempt | null {
  const format = formatOf(fitted.map((l) => l.map((c) => c.char).join('')));
  if (!format) return null;
  const repaired = repairMrz(format, fitted);
  const unsure = fitted.reduce((n, line) => n + line.filter((c) => c.prob < SURE).length, 0);
  const validation = validateMrzLines(repaired);
  if (!validation) return null;
  const confidence = confidences.reduce((s, c) => s + c, 0) / confidences.length;
  const passed = validation.checks.filter((c) => c.valid).length / Math.max(1, validation.checks.length);
  const { format: fmt, checks, countries, fields } = validation;
  // A line read this poorly can be "repaired" into any check digit: do not vouch for it.
  const confident = confidences.every((c) => c >= MIN_LINE_CONFIDENCE);
  const valid = validation.valid && confident;
  const failed = new Set(validation.checks.filter((c) => !c.valid).map((c) => c.name));
  // No document prints a date the calendar lacks, nor a code its format does not have: such a reading is a
  // misreading to look at again, however sure.
  const misread = [...failed].some((name) => name.endsWith('Calendar') || name === 'documentCode');
  return {
    basis: { fitted, confidences, fits },
    reading: { format: fmt, lines: repaired, valid, checks, countries, fields, region, confidence },
    score: passed + confidence * 0.1 - unsure * 0.001,
    unsure,
    settled:
      failed.size > 0 && !misread && fits && confident && failsAsPrinted(fmt, repaired, fitted, failed),
  };
}

/** Letters small print makes of a filler, read surely: its two strokes closed into a C, or joined to a neighbour. */
const FILLER_LOOKS = /[CKSE]/;

/**
 * The name line's positions that may hold a filler read as a letter: letters in the name field (and the document
 * code's second character, on the same line in two-line formats) for which the recogniser offered a filler, and in
 * `small` print every C, K, S or E (read there surely for a filler).
 */
export function fillerDoubts(attempt: Attempt, small = false): FillerDoubts {
  const format = attempt.reading.format;
  const { line, start, end } = nameField(format);
  const text = attempt.reading.lines[line] ?? '';
  const voted = attempt.basis.fitted[line] ?? [];
  const code = line === 0 && format !== 'FRENCH_ID' ? [1] : [];
  const field = Array.from({ length: end - start }, (_, k) => start + k);
  const positions = [...code, ...field].filter((i) => {
    const char = text[i] ?? '';
    return /[A-Z]/.test(char) && (offersFiller(voted[i]) || (small && FILLER_LOOKS.test(char)));
  });
  return { line, positions };
}

/** What small print makes of a filler in a free field: the letters of `FILLER_LOOKS`, or a `4` (its two strokes). */
const FREE_FILLER_LOOKS = /[CKSE4]/;

/**
 * A line's free-field positions (letters, digits or filler: document numbers, optional data) that may hold a filler
 * read as something else: those the recogniser offered a filler for, a character alone between two fillers (data is
 * not one character set in padding; a guilloche across a `<` reads as K or 5), and in `small` print every C, K, S, E
 * or 4 (see `FREE_FILLER_LOOKS`). A field's padding so misread can keep its checks: K and `<` weigh alike, two C at
 * weights 7 and 3 add 120.
 */
export function freeFillerDoubts(attempt: Attempt, line: number, small: boolean): FillerDoubts {
  const classes = LAYOUTS[attempt.reading.format].classes[line] ?? '';
  const text = attempt.reading.lines[line] ?? '';
  const voted = attempt.basis.fitted[line] ?? [];
  const positions: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (classes[i] !== 'X' || text[i] === '<') continue;
    const alone = text[i - 1] === '<' && text[i + 1] === '<';
    if (offersFiller(voted[i]) || alone || (small && FREE_FILLER_LOOKS.test(text[i]!))) positions.push(i);
  }
  return { line, positions };
}

/** A line and its positions that may hold a filler read as something else (see `fillerDoubts`). */
export interface FillerDoubts {
  line: number;
  positions: number[];
}

/**
 * Judge a reading again with the OCR-B glyph classifier's opinion on its filler doubts (see `fillerDoubts`,
 * `freeFillerDoubts`): where the glyph on that cell is a filler, the filler replaces the character in the vote (`<`
 * and C, K or S differ plainly in shape, which small or soft print blurs for the recogniser). Null when no doubt is a
 * filler there.
 */
export function withGlyphFillers(
  attempt: Attempt,
  { line, positions }: FillerDoubts,
  cells: readonly CandidateChar[],
): Attempt | null {
  const voted = attempt.basis.fitted[line];
  if (!voted || positions.length === 0) return null;
  const cellOf = cellsOf(voted, cells);
  const fitted = attempt.basis.fitted.map((l) => l.slice());
  let changed = false;
  for (const i of positions) {
    const read = voted[i]!;
    const cell = cells[cellOf.get(read) ?? -1];
    if (cell?.char !== '<') continue;
    fitted[line]![i] = { char: '<', prob: cell.prob, alternatives: [{ char: read.char, prob: read.prob }] };
    changed = true;
  }
  if (!changed) return null;
  const { confidences, fits } = attempt.basis;
  return judge(fitted, confidences, attempt.reading.region, fits);
}

/**
 * Each voted character's glyph cell: the voted line (as far as the cells go) placed on them by edit-distance
 * alignment.
 */
function cellsOf(
  voted: readonly CandidateChar[],
  cells: readonly CandidateChar[],
): Map<CandidateChar, number> {
  const aligned = alignToCells(voted.slice(0, cells.length), cells);
  return new Map(aligned.map((c, j) => [c, j]));
}

/**
 * Look-alikes small print leaves to context more than to strokes: M, N, H and W (the strokes between two uprights),
 * and a letter and the digit it resembles, which the recogniser reads the way its neighbours lean (a run of digits
 * reads a B as 8, a Z as 2).
 */
const LOOK_ALIKES = ['MNHW', 'B8', 'D0', 'Z2', 'I1', 'S5', 'G6'];

/** Whether a position lies in its format's name field. */
function inNameField(format: MrzFormat, line: number, pos: number): boolean {
  const name = nameField(format);
  return line === name.line && pos >= name.start && pos < name.end;
}

/** The look-alikes a position may hold: its character's set, kept to letters in a name. */
export function lookAlikesOf(char: string, name: boolean): string {
  const set = LOOK_ALIKES.find((s) => s.includes(char)) ?? '';
  return name ? set.replace(/[^A-Z]/g, '') : set;
}

/**
 * A line's positions whose character has a look-alike it may be (see `LOOK_ALIKES`): in the name field, M, N, H
 * and W; elsewhere, characters of free fields (letters, digits or filler: document numbers, optional data).
 */
export function lookAlikePositions(attempt: Attempt, line: number): number[] {
  const { format, lines } = attempt.reading;
  const classes = LAYOUTS[format].classes[line] ?? '';
  const text = lines[line] ?? '';
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const inName = inNameField(format, line, i);
    if ((inName || classes[i] === 'X') && lookAlikesOf(text[i]!, inName).length > 1) out.push(i);
  }
  return out;
}

/**
 * The look-alike positions of a line (see `lookAlikePositions`) in the fields of the checks that fail: a failing check
 * digit's own field, or, when only the composite fails, its positions no other check digit covers (optional data).
 * Fields whose check holds are left as read.
 */
export function failingLookAlikes(attempt: Attempt, line: number): number[] {
  const { format, lines, checks } = attempt.reading;
  const failed = new Set(checks.filter((c) => !c.valid).map((c) => c.name));
  const groups = checkGroupsOf(LAYOUTS[format], lines);
  const own = groups.filter((g) => g.name !== 'composite');
  const failing = own.filter((g) => failed.has(`${g.name}CheckDigit`));
  const composite = groups.find((g) => g.name === 'composite' && failed.has('compositeCheckDigit'));
  const onLine = (of: readonly CheckGroup[]): number[] =>
    of.flatMap(positionsOf).flatMap(([l, i]) => (l === line ? [i] : []));
  const covered = new Set(onLine(own));
  const doubtful = new Set(
    failing.length > 0
      ? onLine(failing)
      : onLine(composite ? [composite] : []).filter((i) => !covered.has(i)),
  );
  return lookAlikePositions(attempt, line).filter((i) => doubtful.has(i));
}

/**
 * Whether every character `after` reads differently from `before` is one whose vote changed: a vote on look-alikes
 * that mends a check by itself, not with a repair elsewhere that its changes made possible (three changes can keep a
 * check digit however wrong the number).
 */
export function changedOnlyByVote(before: Attempt, after: Attempt): boolean {
  return after.reading.lines.every((text, l) =>
    Array.from(text).every(
      (char, i) =>
        char === before.reading.lines[l]?.[i] ||
        after.basis.fitted[l]?.[i]?.char !== before.basis.fitted[l]?.[i]?.char,
    ),
  );
}

/**
 * Judge a reading again with the look-alikes at `positions` of one line (see `lookAlikePositions`) decided by a vote
 * of the recogniser and the OCR-B glyph classifier, equal weights, among the look-alikes: the templates judge each
 * cell's strokes alone, where the recogniser, on a few pixels, leans to the commoner letter or to its neighbours'
 * kind. Only where the templates read one of the look-alikes; with `proposed`, only one among the recogniser's
 * runners-up too. Null when the vote changes none.
 */
export function withGlyphLookAlikes(
  attempt: Attempt,
  line: number,
  positions: readonly number[],
  cells: readonly CandidateChar[],
  proposed = false,
): Attempt | null {
  const voted = attempt.basis.fitted[line];
  if (!voted) return null;
  const cellOf = cellsOf(voted, cells);
  const fitted = attempt.basis.fitted.map((l) => l.slice());
  let changed = false;
  for (const i of positions) {
    const read = voted[i]!;
    const set = lookAlikesOf(read.char, inNameField(attempt.reading.format, line, i));
    // A position's reading kept to the look-alikes, as a one-character line for the vote.
    const among = (c: CandidateChar): CandidateChar[] => {
      const [first, ...rest] = [{ char: c.char, prob: c.prob }, ...c.alternatives].filter((a) =>
        set.includes(a.char),
      );
      return first ? [{ ...first, alternatives: rest }] : [];
    };
    const cell = cells[cellOf.get(read) ?? -1];
    if (!cell || !set.includes(cell.char) || cell.char === read.char) continue;
    if (proposed && !read.alternatives.some((a) => a.char === cell.char)) continue;
    const [best] = voteLines([among(read), among(cell)]);
    if (!best || best.char === read.char) continue;
    fitted[line]![i] = best;
    changed = true;
  }
  if (!changed) return null;
  const { confidences, fits } = attempt.basis;
  return judge(fitted, confidences, attempt.reading.region, fits);
}
