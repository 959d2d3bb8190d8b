/**
 * ICAO 9303 MRZ text of rendered test documents in the three machine-readable formats: TD1 (3×30, ID-1
 * cards), TD2 (2×36) and TD3 (2×44, passports), with correct check digits or one deliberately wrong. Pure code.
 */
import { mrzCheckDigit, mrzField, type CardHolder, type MrzCorruption } from './mrz-td1.js';

/** The machine-readable formats rendered documents carry. */
export type TravelFormat = 'TD1' | 'TD2' | 'TD3';

/** Holder and document data of a rendered travel document. */
export interface TravelDocument extends CardHolder {
  /** Document code, one or two characters (`P`, `PM`, `I`, `ID`, `AC`, ...). */
  documentCode: string;
  /** Optional data: TD1 upper line (15), TD2 (7), TD3 personal number (14). Empty by default. */
  optionalData?: string;
  /** TD1 middle line optional data (11). */
  optionalData2?: string;
}

/** Lines of each format: count and length. */
export const MRZ_SHAPE: Record<TravelFormat, { lines: number; length: number }> = {
  TD1: { lines: 3, length: 30 },
  TD2: { lines: 2, length: 36 },
  TD3: { lines: 2, length: 44 },
};

const wrong = (digit: string): string => String((Number(digit) + 5) % 10);

/** A name in MRZ characters: capitals, any other run of characters as one filler, none at either end. */
function mrzNamePart(name: string): string {
  return name
    .toUpperCase()
    .replace(/[^A-Z]+/g, '<')
    .replace(/^<+|<+$/g, '');
}

/** The name field: primary identifier, `<<`, secondary identifier, spaces as fillers, cut to `length`. */
export function mrzName(surname: string, givenNames: string, length: number): string {
  return mrzField(`${mrzNamePart(surname)}<<${mrzNamePart(givenNames)}`, length);
}

function checkOf(field: string, corrupt: boolean): string {
  const digit = mrzCheckDigit(field);
  return corrupt ? wrong(digit) : digit;
}

/** The MRZ lines of a document in `format`; `corrupt` makes one check digit wrong. */
export function buildMrz(
  format: TravelFormat,
  doc: TravelDocument,
  corrupt: MrzCorruption = 'none',
): string[] {
  const code = mrzField(doc.documentCode, 2);
  const state = mrzField(doc.issuingState, 3);
  const nationality = mrzField(doc.nationality, 3);
  const number = mrzField(doc.documentNumber, 9);
  const birth = mrzField(doc.birthDate, 6);
  const expiry = mrzField(doc.expiryDate, 6);
  const sex = mrzField(doc.sex, 1);
  const numberPart = number + checkOf(number, corrupt === 'document_number');
  const birthPart = birth + checkOf(birth, corrupt === 'birth_date');
  const expiryPart = expiry + checkOf(expiry, corrupt === 'expiry_date');
  const composite = (text: string): string => checkOf(text, corrupt === 'composite');
  if (format === 'TD1') {
    const line1 = `${code}${state}${numberPart}${mrzField(doc.optionalData ?? '', 15)}`;
    const head = `${birthPart}${sex}${expiryPart}${nationality}${mrzField(doc.optionalData2 ?? '', 11)}`;
    const line2 =
      head + composite(line1.slice(5) + head.slice(0, 7) + head.slice(8, 15) + head.slice(18, 29));
    return [line1, line2, mrzName(doc.surname, doc.givenNames, 30)];
  }
  if (format === 'TD2' && code + state === 'IDFRA') return frenchIdMrz(doc, corrupt);
  if (format === 'TD2') {
    const line1 = `${code}${state}${mrzName(doc.surname, doc.givenNames, 31)}`;
    const head = `${numberPart}${nationality}${birthPart}${sex}${expiryPart}${mrzField(doc.optionalData ?? '', 7)}`;
    return [line1, head + composite(head.slice(0, 10) + head.slice(13, 20) + head.slice(21, 35))];
  }
  const line1 = `${code}${state}${mrzName(doc.surname, doc.givenNames, 39)}`;
  const personal = mrzField(doc.optionalData ?? '', 14);
  // An empty personal number may carry a filler as its check digit (ICAO 9303-4).
  const personalCheck = /^<+$/.test(personal) ? '<' : mrzCheckDigit(personal);
  const head = `${numberPart}${nationality}${birthPart}${sex}${expiryPart}${personal}${personalCheck}`;
  return [line1, head + composite(head.slice(0, 10) + head.slice(13, 20) + head.slice(21, 43))];
}

/**
 * A 2×36 ID card from France is the French national ID card, whose MRZ has a layout of its own (see the reader's
 * layouts): number from the expiry's year and month and the document number's digits, no expiry, no nationality.
 */
function frenchIdMrz(doc: TravelDocument, corrupt: MrzCorruption): string[] {
  const digits = doc.documentNumber.replace(/\D/g, '').padEnd(8, '7');
  const number = mrzField(doc.expiryDate, 6).slice(0, 4) + digits.slice(0, 8);
  const birth = mrzField(doc.birthDate, 6);
  const line1 = `IDFRA${mrzField(mrzNamePart(doc.surname), 25)}${mrzField(doc.optionalData ?? '', 6)}`;
  const head =
    number +
    checkOf(number, corrupt === 'document_number') +
    mrzField(mrzNamePart(doc.givenNames), 14) +
    birth +
    checkOf(birth, corrupt === 'birth_date') +
    mrzField(doc.sex, 1);
  return [line1, head + checkOf(line1 + head, corrupt === 'composite')];
}
