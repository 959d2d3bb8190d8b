import { isSupportedCountry } from 'libphonenumber-js/max';
import { CoreError } from '../../../errors.js';
import type { Services } from '../../../services/container.js';

/** Setting: the country preselected for mobile numbers in the console (ISO 3166-1 alpha-2, e.g. "KE"). */
export const DEFAULT_COUNTRY_KEY = 'console.defaultCountry';

/** The stored default country, or null before an admin chose one. */
export function readDefaultCountry(settings: Services['settings']): string | null {
  const stored = settings.get<unknown>(DEFAULT_COUNTRY_KEY, null);
  return typeof stored === 'string' && isSupportedCountry(stored) ? stored : null;
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
export function saveDefaultCountry(settings: Services['settings'], country: string): void {
  settings.set(DEFAULT_COUNTRY_KEY, country);
}
