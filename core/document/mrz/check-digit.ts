/** ICAO 9303 value of one MRZ character: digits as such, A–Z as 10–35, the filler `<` as 0; -1 when not MRZ. */
export function mrzCharValue(char: string): number {
  const code = char.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 90) return code - 55;
  if (char === '<') return 0;
  return -1;
}

const WEIGHTS = [7, 3, 1] as const;

/** ICAO 9303 check digit (weights 7-3-1, modulo 10) of a string; -1 when it holds a non-MRZ character. */
export function computeCheckDigit(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const value = mrzCharValue(text[i] ?? '');
    if (value < 0) return -1;
    sum += value * (WEIGHTS[i % 3] ?? 1);
  }
  return sum % 10;
}

/**
 * Whether `digit` is the check digit of `text`. A filler `<` is accepted as the check digit of an all-filler
 * field (ICAO allows an empty optional field to carry `<` or `0`).
 */
export function isCheckDigitValid(text: string, digit: string): boolean {
  if (digit === '<') return /^<*$/.test(text);
  const expected = computeCheckDigit(text);
  return expected >= 0 && digit === String(expected);
}
