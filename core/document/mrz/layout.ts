/**
 * The MRZ formats this reader knows: ICAO 9303's, and the French national ID card (2×36 like TD2, issued until
 * 2021, with a layout of its own: surname and administrative code above, a 12-character number, given names,
 * birth date and sex below, no expiry date and no nationality).
 */
export type MrzFormat = 'TD1' | 'TD2' | 'TD3' | 'MRVA' | 'MRVB' | 'FRENCH_ID';

/**
 * What a position may hold: `A` letters or filler, `N` digits, `X` letters, digits or filler,
 * `S` sex (M, F, X or filler), `C` a check digit (digit, or filler for an empty optional field).
 */
export type CharClass = 'A' | 'N' | 'X' | 'S' | 'C';

/** A run of characters on one line, `end` exclusive. */
export interface Span {
  line: number;
  start: number;
  end: number;
}

/** A check digit and the spans it covers. */
export interface CheckGroup {
  name: string;
  spans: Span[];
  digit: { line: number; pos: number };
}

/** Geometry, character classes, check digits and country fields of one format. */
export interface MrzLayout {
  format: MrzFormat;
  lineLength: number;
  /** One class string per line, one class letter per position. */
  classes: string[];
  checks: CheckGroup[];
  /** 3-character country fields (issuing state, nationality). */
  countries: { name: string; line: number; start: number }[];
  /** Letters the document code may begin with (ICAO 9303 parts 4-7: P a passport, V a visa; A, C or I a card). */
  codes: string;
}

function classes(...runs: [CharClass, number][]): string {
  return runs.map(([c, n]) => c.repeat(n)).join('');
}

const span = (line: number, start: number, end: number): Span => ({ line, start, end });
const check = (name: string, spans: Span[], line: number, pos: number): CheckGroup => ({
  name,
  spans,
  digit: { line, pos },
});

/** Line 2 of TD3 / MRV-A and of TD2 / MRV-B share their first 28 positions. */
const SHARED_LINE2 = classes(['X', 9], ['C', 1], ['A', 3], ['N', 6], ['C', 1], ['S', 1], ['N', 6], ['C', 1]);
const LINE2_CHECKS = [
  check('documentNumber', [span(1, 0, 9)], 1, 9),
  check('birthDate', [span(1, 13, 19)], 1, 19),
  check('expirationDate', [span(1, 21, 27)], 1, 27),
];
const LINE2_COUNTRIES = [
  { name: 'issuingState', line: 0, start: 2 },
  { name: 'nationality', line: 1, start: 10 },
];

/** Layouts by format (ICAO 9303 parts 4–6). */
export const LAYOUTS: Record<MrzFormat, MrzLayout> = {
  TD3: {
    format: 'TD3',
    codes: 'P',
    lineLength: 44,
    classes: [classes(['A', 44]), SHARED_LINE2 + classes(['X', 14], ['C', 1], ['C', 1])],
    checks: [
      ...LINE2_CHECKS,
      check('personalNumber', [span(1, 28, 42)], 1, 42),
      check('composite', [span(1, 0, 10), span(1, 13, 20), span(1, 21, 43)], 1, 43),
    ],
    countries: LINE2_COUNTRIES,
  },
  MRVA: {
    format: 'MRVA',
    codes: 'V',
    lineLength: 44,
    classes: [classes(['A', 44]), SHARED_LINE2 + classes(['X', 16])],
    checks: LINE2_CHECKS,
    countries: LINE2_COUNTRIES,
  },
  TD2: {
    format: 'TD2',
    codes: 'ACI',
    lineLength: 36,
    classes: [classes(['A', 36]), SHARED_LINE2 + classes(['X', 7], ['C', 1])],
    checks: [...LINE2_CHECKS, check('composite', [span(1, 0, 10), span(1, 13, 20), span(1, 21, 35)], 1, 35)],
    countries: LINE2_COUNTRIES,
  },
  MRVB: {
    format: 'MRVB',
    codes: 'V',
    lineLength: 36,
    classes: [classes(['A', 36]), SHARED_LINE2 + classes(['X', 8])],
    checks: LINE2_CHECKS,
    countries: LINE2_COUNTRIES,
  },
  FRENCH_ID: {
    format: 'FRENCH_ID',
    codes: 'I',
    lineLength: 36,
    classes: [
      classes(['A', 30], ['X', 6]),
      // Number: issue year and month, department (2A/2B in Corsica), serial.
      classes(['N', 4], ['X', 3], ['N', 5], ['C', 1], ['A', 14], ['N', 6], ['C', 1], ['S', 1], ['C', 1]),
    ],
    checks: [
      check('documentNumber', [span(1, 0, 12)], 1, 12),
      check('birthDate', [span(1, 27, 33)], 1, 33),
      check('composite', [span(0, 0, 36), span(1, 0, 35)], 1, 35),
    ],
    countries: [{ name: 'issuingState', line: 0, start: 2 }],
  },
  TD1: {
    format: 'TD1',
    codes: 'ACI',
    lineLength: 30,
    classes: [
      classes(['A', 5], ['X', 9], ['C', 1], ['X', 15]),
      classes(['N', 6], ['C', 1], ['S', 1], ['N', 6], ['C', 1], ['A', 3], ['X', 11], ['C', 1]),
      classes(['A', 30]),
    ],
    checks: [
      check('documentNumber', [span(0, 5, 14)], 0, 14),
      check('birthDate', [span(1, 0, 6)], 1, 6),
      check('expirationDate', [span(1, 8, 14)], 1, 14),
      check('composite', [span(0, 5, 30), span(1, 0, 7), span(1, 8, 15), span(1, 18, 29)], 1, 29),
    ],
    countries: [
      { name: 'issuingState', line: 0, start: 2 },
      { name: 'nationality', line: 1, start: 15 },
    ],
  },
};

/**
 * The format of MRZ lines from their count, length and document code: 3×30 TD1, 2×36 TD2 (MRV-B when the
 * code starts with V, the French ID card when the lines start with IDFRA), 2×44 TD3 (MRV-A when V). Null for
 * anything else.
 */
export function formatOf(lines: readonly string[]): MrzFormat | null {
  const [first] = lines;
  if (!first || lines.some((l) => l.length !== first.length)) return null;
  const visa = first.startsWith('V');
  if (lines.length === 3 && first.length === 30) return 'TD1';
  if (lines.length === 2 && first.length === 36)
    return visa ? 'MRVB' : first.startsWith('IDFRA') ? 'FRENCH_ID' : 'TD2';
  if (lines.length === 2 && first.length === 44) return visa ? 'MRVA' : 'TD3';
  return null;
}

/**
 * The check groups actually present in these lines. A TD1 document number longer than 9 characters puts a
 * filler in the check-digit position and continues in the optional field, its check digit last (ICAO 9303-5 4.2.2).
 */
export function checkGroupsOf(layout: MrzLayout, lines: readonly string[]): CheckGroup[] {
  if (layout.format !== 'TD1' || lines[0]?.[14] !== '<') return layout.checks;
  const optional = lines[0].slice(15);
  const end = optional.indexOf('<');
  const last = 15 + (end < 0 ? optional.length : end) - 1;
  if (last < 15) return layout.checks;
  return layout.checks.map((group) =>
    group.name === 'documentNumber'
      ? check('documentNumber', [span(0, 5, 14), span(0, 15, last)], 0, last)
      : group,
  );
}

/** The characters of the spans, concatenated. */
export function textOf(lines: readonly string[], spans: readonly Span[]): string {
  return spans.map((s) => (lines[s.line] ?? '').slice(s.start, s.end)).join('');
}
