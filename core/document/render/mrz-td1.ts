/**
 * ICAO 9303 TD1 MRZ text for rendered test cards: three 30-character lines with correct check digits
 * (or one deliberately wrong). Pure code.
 */

/** Holder and document data printed on a rendered card. */
export interface CardHolder {
  /** ISO 3166-1 alpha-3 issuing state (ICAO codes such as `D` are padded with `<`). */
  issuingState: string;
  documentNumber: string;
  surname: string;
  givenNames: string;
  nationality: string;
  /** YYMMDD. */
  birthDate: string;
  sex: 'M' | 'F' | '<';
  /** YYMMDD. */
  expiryDate: string;
}

const WEIGHTS = [7, 3, 1] as const;

/** ICAO 9303 check digit (weights 7-3-1; digits, A=10..Z=35, '<'=0). */
export function mrzCheckDigit(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let value = 0;
    if (c >= 48 && c <= 57) value = c - 48;
    else if (c >= 65 && c <= 90) value = c - 55;
    sum += value * WEIGHTS[i % 3]!;
  }
  return String(sum % 10);
}

/** An MRZ field: upper case, anything outside A-Z 0-9 turned into fillers, cut or padded with `<` to `length`. */
export function mrzField(text: string, length: number): string {
  const cleaned = text
    .toUpperCase()
    .replace(/[^A-Z0-9<]+/g, '<')
    .slice(0, length);
  return cleaned.padEnd(length, '<');
}

/** Which check digit to corrupt, for negative test cards. */
export type MrzCorruption = 'none' | 'document_number' | 'birth_date' | 'expiry_date' | 'composite';

/** The three TD1 lines of a holder; `corrupt` replaces one check digit by a wrong one. */
export function buildTd1(holder: CardHolder, corrupt: MrzCorruption = 'none'): [string, string, string] {
  const docNumber = mrzField(holder.documentNumber, 9);
  const birth = mrzField(holder.birthDate, 6);
  const expiry = mrzField(holder.expiryDate, 6);
  const wrong = (digit: string): string => String((Number(digit) + 5) % 10);
  let docCheck = mrzCheckDigit(docNumber);
  let birthCheck = mrzCheckDigit(birth);
  let expiryCheck = mrzCheckDigit(expiry);
  if (corrupt === 'document_number') docCheck = wrong(docCheck);
  if (corrupt === 'birth_date') birthCheck = wrong(birthCheck);
  if (corrupt === 'expiry_date') expiryCheck = wrong(expiryCheck);
  const optional1 = mrzField('', 15);
  const optional2 = mrzField('', 11);
  const line1 = `I<${mrzField(holder.issuingState, 3)}${docNumber}${docCheck}${optional1}`;
  const line2Head = `${birth}${birthCheck}${mrzField(holder.sex, 1)}${expiry}${expiryCheck}${mrzField(holder.nationality, 3)}${optional2}`;
  // Composite over the upper line's positions 6-30 and the lower line's 1-7, 9-15 and 19-29 (ICAO 9303-5).
  const compositeInput =
    line1.slice(5) + line2Head.slice(0, 7) + line2Head.slice(8, 15) + line2Head.slice(18, 29);
  let composite = mrzCheckDigit(compositeInput);
  if (corrupt === 'composite') composite = wrong(composite);
  const line2 = `${line2Head}${composite}`;
  const names = `${mrzField(holder.surname, 30).replace(/<+$/, '')}<<${holder.givenNames.toUpperCase().replace(/[^A-Z]+/g, '<')}`;
  const line3 = mrzField(names, 30);
  return [line1, line2, line3];
}
