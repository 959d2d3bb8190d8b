import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { CoreError } from './errors.js';

/**
 * Normalise a mobile number given as digits with a country code ("447911123456", "+44 7911 123456",
 * "0044...") to E.164, or throw MOBILE_NUMBER_INVALID (400).
 */
export function normaliseMobile(input: unknown, field = 'mobile_number'): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new CoreError('FIELD_MISSING', `The ${field} field is required.`, { field });
  }
  const compact = input.trim().replace(/[\s\-().]/g, '');
  if (compact.length > 20 || !/^(\+|00)?\d{6,17}$/.test(compact)) {
    throw new CoreError(
      'MOBILE_NUMBER_INVALID',
      `The ${field} must be digits with a country code, e.g. 447911123456.`,
      {
        field,
      },
    );
  }
  const international = compact.startsWith('+')
    ? compact
    : compact.startsWith('00')
      ? `+${compact.slice(2)}`
      : `+${compact}`;
  const parsed = parsePhoneNumberFromString(international);
  if (!parsed?.isValid()) {
    throw new CoreError(
      'MOBILE_NUMBER_INVALID',
      `The ${field} is not a valid phone number for its country code.`,
      {
        field,
      },
    );
  }
  return parsed.number;
}

/** Mask an E.164 number for logs, audit rows and de-duplication notices: +4479*****456. */
export function maskMobile(e164: string): string {
  const digits = e164.replace(/^\+/, '');
  if (digits.length <= 6) return `+${'*'.repeat(digits.length)}`;
  return `+${digits.slice(0, 4)}${'*'.repeat(digits.length - 7)}${digits.slice(-3)}`;
}
