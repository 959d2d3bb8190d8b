import { editDistance } from '../eval/edit-distance.js';
import { printedDatesIn } from './dates.js';
import type { CrossCheck, ExtractedField, FieldName } from './types.js';
import type { PrintedLine } from './tesseract-pool.js';

/** Labels of North-American licences (AAMVA card design): label → field. */
const LICENCE_LABELS: [RegExp, FieldName][] = [
  // OCR often glues a label to its value (`LNCARDHOLDER`): labels may be followed directly by the value.
  [/\b(?:DL|LIC(?:ENSE)?\s*(?:NO|#)?|4D)[\s:#.]*([A-Z]?\d[A-Z0-9-]{4,})/, 'document_number'],
  [/\b(?:LN|LAST NAME)[\s:.]*([A-Z][A-Z' -]+)/, 'surname'],
  [/\b(?:FN|FIRST NAME)[\s:.]*([A-Z][A-Z' -]+)/, 'given_names'],
  [/\bCLASS[\s:.]+([A-Z0-9]{1,3})\b/, 'licence_class'],
  [/\bSEX[\s:.]+([MFX])\b/, 'sex'],
];
const DATE_LABELS: [RegExp, FieldName][] = [
  [/\b(?:DOB|DATE OF BIRTH|BIRTH)/, 'date_of_birth'],
  [/\b(?:EXP|EXPIRES|EXPIRY|EXPIRATION)/, 'expiry_date'],
];

/**
 * Fields of a driver's licence's printed side, by their labels (DL, LN, FN, DOB, EXP, CLASS, SEX) and the
 * address as the two lines after the given names that look like a street and a town with a postal code.
 */
export function licenceFieldsFromPrinted(
  lines: readonly PrintedLine[],
): Partial<Record<FieldName, ExtractedField>> {
  const out: Partial<Record<FieldName, ExtractedField>> = {};
  const put = (name: FieldName, value: string, confidence: number): void => {
    if (!out[name] && value.trim())
      out[name] = { value: value.trim(), source: 'printed', confidence: Number(confidence.toFixed(3)) };
  };
  for (const [index, line] of lines.entries()) {
    const text = line.text.toUpperCase();
    for (const [pattern, field] of LICENCE_LABELS) {
      const m = pattern.exec(text);
      if (m?.[1]) put(field, m[1].replace(/\s{2,}.*$/, ''), line.confidence);
    }
    for (const [pattern, field] of DATE_LABELS) {
      const [date] = pattern.test(text) ? printedDatesIn(text) : [];
      if (date) put(field, date, line.confidence);
    }
    if (!out.address && /^\d+\s+[A-Z0-9 .'-]+$/.test(text.trim())) {
      const town = lines[index + 1]?.text.toUpperCase() ?? '';
      if (/\b[A-Z]{2}\s+\d{5}(-\d{4})?\b/.test(town))
        put('address', `${line.text.trim()}, ${town.trim()}`, line.confidence);
    }
  }
  return out;
}

/** Letters and digits only, upper case: printed and MRZ values compare without punctuation or spacing. */
function squeeze(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/**
 * Compare MRZ values with the printed text: a field `match`es when its value appears in the printed text,
 * is a `mismatch` when only a close variant does (one or two characters off: a misprint, an alteration or
 * an OCR slip the caller should look at), else `not_found`.
 */
export function crossCheck(
  mrz: Partial<Record<FieldName, ExtractedField>>,
  lines: readonly PrintedLine[],
): CrossCheck[] {
  const text = lines.map((l) => l.text).join('\n');
  const tokens = text
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((t) => t.length >= 2);
  const dates = new Set(printedDatesIn(text));
  const squeezed = squeeze(text);
  const out: CrossCheck[] = [];
  for (const field of [
    'surname',
    'given_names',
    'document_number',
    'date_of_birth',
    'expiry_date',
  ] as FieldName[]) {
    const value = mrz[field]?.value;
    if (!value) continue;
    if (field === 'date_of_birth' || field === 'expiry_date') {
      const close = [...dates].find((d) => d !== value && editDistance(d, value) <= 1) ?? null;
      out.push({
        field,
        mrz: value,
        printed: dates.has(value) ? value : close,
        status: dates.has(value) ? 'match' : close ? 'mismatch' : 'not_found',
      });
      continue;
    }
    const wanted = squeeze(value);
    if (wanted.length >= 2 && squeezed.includes(wanted)) {
      out.push({ field, mrz: value, printed: value, status: 'match' });
      continue;
    }
    // Names are compared word by word (the MRZ truncates and transliterates; the printed side may add accents).
    const words = value.split(/\s+/).filter((w) => w.length >= 3);
    const candidates = words.length ? words : [value];
    let closest: string | null = null;
    for (const word of candidates) {
      const w = squeeze(word);
      const limit = w.length >= 8 ? 2 : 1;
      const near = tokens.find(
        (t) => t !== w && Math.abs(t.length - w.length) <= limit && editDistance(t, w) <= limit,
      );
      if (near) closest = near;
    }
    out.push({ field, mrz: value, printed: closest, status: closest ? 'mismatch' : 'not_found' });
  }
  return out;
}
