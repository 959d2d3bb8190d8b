import { parsePhoneNumberFromString, validatePhoneNumberLength } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/metadata.max.json';
import { CoreError } from './errors.js';

const EXAMPLE = 'e.g. 447911123456 for the UK number 07911 123456';
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function invalid(field: string, message: string): CoreError {
  return new CoreError('MOBILE_NUMBER_INVALID', `The ${field} field ${message}`, { field });
}

/** "country code 44 (United Kingdom)": the calling code and its main region, when it has one. */
function describeCountryCode(code: string): string {
  const main = (metadata.country_calling_codes as Record<string, string[] | undefined>)[code]?.[0];
  const name = main && main !== '001' ? regionNames.of(main) : undefined;
  return name ? `country code ${code} (${name})` : `country code ${code}`;
}

/**
 * Normalise a mobile number given as digits with a country code ("447911123456", "+44 7911 123456",
 * "0044...") to E.164, or throw MOBILE_NUMBER_INVALID (400) saying what is wrong with it.
 */
export function normaliseMobile(input: unknown, field = 'mobile_number'): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new CoreError('FIELD_MISSING', `The ${field} field is required.`, { field });
  }
  if (input.length > 40) throw invalid(field, `is too long for a phone number (${EXAMPLE}).`);
  const compact = input.trim().replace(/[\s\-().]/g, '');
  if (!/^(\+|00)?\d+$/.test(compact)) {
    throw invalid(field, `may hold only digits, spaces and a leading + or 00 (${EXAMPLE}).`);
  }
  // A national number starts with its trunk prefix 0: the country code is what is missing.
  if (/^0[1-9]/.test(compact)) {
    throw invalid(
      field,
      `starts with 0, so its country code is missing: write the number in international form (${EXAMPLE}).`,
    );
  }
  const international = compact.startsWith('+')
    ? compact
    : compact.startsWith('00')
      ? `+${compact.slice(2)}`
      : `+${compact}`;
  const length = validatePhoneNumberLength(international);
  const parsed = parsePhoneNumberFromString(international);
  if (length === 'INVALID_COUNTRY' || !parsed) {
    throw invalid(field, `does not start with a known country code (${EXAMPLE}).`);
  }
  const country = describeCountryCode(parsed.countryCallingCode);
  if (length === 'TOO_SHORT') throw invalid(field, `is too short for a number with ${country}.`);
  if (length === 'TOO_LONG') throw invalid(field, `is too long for a number with ${country}.`);
  if (length !== undefined || !parsed.isValid()) {
    throw invalid(field, `is not a valid number for ${country}: check the digits after the country code.`);
  }
  return parsed.number;
}

/** Mask an E.164 number for logs, audit rows and de-duplication notices: +4479*****456. */
export function maskMobile(e164: string): string {
  const digits = e164.replace(/^\+/, '');
  if (digits.length <= 6) return `+${'*'.repeat(digits.length)}`;
  return `+${digits.slice(0, 4)}${'*'.repeat(digits.length - 7)}${digits.slice(-3)}`;
}
