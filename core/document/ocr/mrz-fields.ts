import type { MrzReading } from '../mrz/index.js';
import { mrzDateToIso } from './dates.js';
import type { DocumentType, ExtractedField, FieldName } from './types.js';

/** Confidence of a value covered by a valid check digit, or of one read in a fully valid MRZ. */
const CHECKED = 0.99;

/** Document type from the MRZ format and document code (ICAO 9303: P passport, V visa, I/A/C identity cards). */
export function documentTypeOfMrz(reading: Pick<MrzReading, 'format' | 'lines'>): DocumentType {
  if (reading.format === 'MRVA' || reading.format === 'MRVB') return 'visa';
  const code = reading.lines[0]?.[0] ?? '';
  if (code === 'P') return 'passport';
  if (code === 'V') return 'visa';
  if (reading.format === 'TD3') return 'passport';
  // French and Swiss driving licences use a D code in an ID-1 MRZ.
  if (code === 'D') return 'driver_licence';
  return 'id_card';
}

/**
 * The service's fields from an MRZ reading: names with fillers as spaces, dates as ISO 8601 (birth in the
 * past, expiry in a window reaching 20 years ahead), sex as M/F/X. A value under a failed check digit keeps
 * a low confidence rather than disappearing: the caller sees it and the failed check.
 */
export function fieldsFromMrz(
  reading: MrzReading,
  today: Date = new Date(),
): Partial<Record<FieldName, ExtractedField>> {
  const f = reading.fields;
  const checkOk = (name: string): boolean =>
    reading.checks.find((c) => c.name === name)?.valid ?? reading.valid;
  const base = Math.max(0, Math.min(1, reading.confidence));
  const conf = (checked: boolean): number => (checked ? CHECKED : Math.min(0.5, base));
  const out: Partial<Record<FieldName, ExtractedField>> = {};
  const put = (name: FieldName, value: string | null | undefined, checked: boolean): void => {
    if (value) out[name] = { value, source: 'mrz', confidence: Number(conf(checked).toFixed(3)) };
  };
  // Names carry no check digit: they are as good as the recognition (and the composite vouches for nothing there).
  const nameConfidence = reading.valid ? Math.min(0.95, Math.max(0.5, base)) : Math.min(0.5, base);
  if (f.lastName)
    out.surname = { value: f.lastName, source: 'mrz', confidence: Number(nameConfidence.toFixed(3)) };
  if (f.firstName)
    out.given_names = { value: f.firstName, source: 'mrz', confidence: Number(nameConfidence.toFixed(3)) };
  // The French ID card's number is the whole 12 characters (the parser keeps only the serial at its end).
  const number = reading.format === 'FRENCH_ID' ? reading.lines[1]?.slice(0, 12) : f.documentNumber;
  put('document_number', (number ?? '').replace(/\s+/g, '') || null, checkOk('documentNumberCheckDigit'));
  const country = (name: string): { code: string; valid: boolean } | undefined =>
    reading.countries.find((c) => c.name === name);
  const nationality = country('nationality');
  const issuing = country('issuingState');
  put('nationality', nationality?.code, nationality?.valid ?? false);
  put('issuing_country', issuing?.code, issuing?.valid ?? false);
  put(
    'date_of_birth',
    f.birthDate ? mrzDateToIso(f.birthDate, 'birth', today) : null,
    checkOk('birthDateCheckDigit'),
  );
  put(
    'expiry_date',
    f.expirationDate ? mrzDateToIso(f.expirationDate, 'expiry', today) : null,
    checkOk('expirationDateCheckDigit'),
  );
  const sex =
    f.sex === 'male' ? 'M' : f.sex === 'female' ? 'F' : f.sex === 'nonspecified' ? 'X' : (f.sex ?? null);
  put('sex', sex, reading.valid);
  return out;
}
