import { isSupportedCountry } from 'libphonenumber-js/max';
import { CoreError } from '../../../errors.js';
import type { Settings } from '../../../settings/settings.js';

/** The stored default country (ISO 3166-1 alpha-2), or null before an admin chose one. */
export function readDefaultCountry(settings: Settings): string | null {
  return settings.get('console.defaultCountry');
}

/** A country code upper-cased; 400 naming `field` when it is not a country with a calling code. */
export function checkCountry(code: string, field: string): string {
  const upper = code.trim().toUpperCase();
  if (!isSupportedCountry(upper)) {
    throw new CoreError('FIELD_INVALID', `${code.slice(0, 8)} is not a country code such as GB or KE.`, {
      field,
    });
  }
  return upper;
}

/** Store the default country (already checked). */
export function saveDefaultCountry(settings: Settings, country: string): Promise<void> {
  return settings.set('console.defaultCountry', country);
}
