import { parse } from 'mrz';
import { isCheckDigitValid } from './check-digit.js';
import { isIcaoCountryCode } from './countries.js';
import { checkGroupsOf, formatOf, LAYOUTS, textOf, type CheckGroup, type MrzFormat } from './layout.js';

/** One check digit of an MRZ and whether it holds. */
export interface MrzCheck {
  name: string;
  valid: boolean;
}

/** A country field and whether ICAO lists its code (check digits do not cover these fields). */
export interface MrzCountry {
  name: string;
  code: string;
  valid: boolean;
}

/** Result of validating MRZ text lines. */
export interface MrzValidation {
  format: MrzFormat;
  /** Every check holds: each check digit, each country code, each date and the document code. */
  valid: boolean;
  /**
   * Each check digit (`documentNumberCheckDigit`, ..., `compositeCheckDigit`), country code (`issuingStateCode`,
   * `nationalityCode`), date (`birthDateCalendar`, `expirationDateCalendar`) and the document code (`documentCode`).
   */
  checks: MrzCheck[];
  /** Issuing state and nationality codes, checked against the ICAO list. */
  countries: MrzCountry[];
  /** Parsed fields (by the `mrz` package's names); raw text with fillers removed where the parser refused a value. */
  fields: Record<string, string | null>;
}

/** Check digits of lines whose format is known. */
export function checkMrzLines(format: MrzFormat, lines: readonly string[]): MrzCheck[] {
  return checkGroupsOf(LAYOUTS[format], lines).map((group) => ({
    name: `${group.name}CheckDigit`,
    valid: isCheckDigitValid(textOf(lines, group.spans), lines[group.digit.line]?.[group.digit.pos] ?? ''),
  }));
}

/** Country fields of lines whose format is known, each checked against the ICAO codes. */
export function checkMrzCountries(format: MrzFormat, lines: readonly string[]): MrzCountry[] {
  return LAYOUTS[format].countries.map((country) => {
    const code = (lines[country.line] ?? '').slice(country.start, country.start + 3);
    return { name: country.name, code: code.replace(/<+$/, ''), valid: isIcaoCountryCode(code) };
  });
}

/** Whether the lines' document code begins as its format's do (ICAO 9303: P a passport, A, C or I a card, V a visa). */
export function isDocumentCodeValid(format: MrzFormat, lines: readonly string[]): boolean {
  const first = lines[0]?.[0] ?? '';
  return first !== '' && LAYOUTS[format].codes.includes(first);
}

/** The date fields (YYMMDD) a format holds: each is a check group of its own. */
const DATE_FIELDS = new Set(['birthDate', 'expirationDate']);

/** Whether a check group is a date field's. */
export function isDateField(group: CheckGroup): boolean {
  return DATE_FIELDS.has(group.name);
}

/** Days of each month, February with its leap day (a two-digit year does not tell the century). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether a YYMMDD field is a calendar date. A part not known is written as fillers (ICAO 9303-3) or, by some
 * states, as `00`; any other month is 01-12 and any other day within its month.
 */
export function isCalendarDate(text: string): boolean {
  const [year, month, day] = [text.slice(0, 2), text.slice(2, 4), text.slice(4, 6)];
  const part = /^(\d\d|<<)$/;
  if (text.length !== 6 || ![year, month, day].every((p) => part.test(p))) return false;
  const m = month === '<<' ? 0 : Number(month);
  const d = day === '<<' ? 0 : Number(day);
  return m <= 12 && d <= (m === 0 ? 31 : MONTH_DAYS[m - 1]!);
}

/** Date fields of lines whose format is known, each checked against the calendar (`birthDateCalendar`, ...). */
export function checkMrzDates(format: MrzFormat, lines: readonly string[]): MrzCheck[] {
  return checkGroupsOf(LAYOUTS[format], lines)
    .filter(isDateField)
    .map((group) => ({ name: `${group.name}Calendar`, valid: isCalendarDate(textOf(lines, group.spans)) }));
}

/**
 * Validate MRZ lines: format from their shape, every check digit (ICAO 9303 7-3-1), the country codes against
 * the ICAO list (UTO and the organisations included), the dates against the calendar, the document code's first
 * letter against the format, and the fields as parsed by the `mrz` package. Null when the lines are not a known MRZ
 * shape.
 */
export function validateMrzLines(lines: readonly string[]): MrzValidation | null {
  const clean = lines.map((l) => l.trim().toUpperCase());
  const format = formatOf(clean);
  if (!format || clean.some((l) => !/^[A-Z0-9<]+$/.test(l))) return null;
  const countries = checkMrzCountries(format, clean);
  // A misread can keep every check digit (MLD for MDA, a birth month 44, a name line read askew): the country codes,
  // the dates and the document code are checks of their own.
  const checks = [
    ...checkMrzLines(format, clean),
    ...countries.map((c) => ({ name: `${c.name}Code`, valid: c.valid })),
    ...checkMrzDates(format, clean),
    { name: 'documentCode', valid: isDocumentCodeValid(format, clean) },
  ];
  return { format, valid: checks.every((c) => c.valid), checks, countries, fields: parseFields(clean) };
}

function parseFields(lines: string[]): Record<string, string | null> {
  const fields: Record<string, string | null> = {};
  let result: ReturnType<typeof parse>;
  try {
    result = parse(lines);
  } catch {
    return fields;
  }
  for (const detail of result.details) {
    if (!detail.field || detail.field.endsWith('CheckDigit')) continue;
    // The parser nulls values it rejects (a visa's `V` code, the specimen state UTO); keep the raw text instead.
    const raw = (lines[detail.line] ?? '')
      .slice(detail.start, detail.end)
      .replace(/<+$/, '')
      .replace(/</g, ' ')
      .trim();
    fields[detail.field] = detail.value ?? (raw === '' ? null : raw);
  }
  return fields;
}
