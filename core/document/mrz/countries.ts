import { states } from 'mrz';

/**
 * Codes ICAO 9303 part 3 allows in the issuing-state and nationality fields beyond the `mrz` package's list:
 * the specimen state Utopia and organisations that issue travel documents.
 */
const EXTRA_CODES = [
  'UTO',
  'XBA',
  'XCO',
  'XEC',
  'XMP',
  'XIM',
  'XCC',
  'XCE',
  'XOM',
  'XPO',
  'XES',
  'XDC',
  'EUE',
  'UNO',
  'UNA',
  'UNK',
];

const CODES: ReadonlySet<string> = new Set([...Object.keys(states), ...EXTRA_CODES]);

/**
 * Whether a 3-character MRZ country field (filler-padded, e.g. `D<<`) names a state or organisation ICAO
 * lists. A valid check digit does not cover these fields, so a misread (`MLD`) is only caught here.
 */
export function isIcaoCountryCode(field: string): boolean {
  const code = field.replace(/<+$/, '');
  return CODES.has(code);
}
