import { CoreError } from '../../errors.js';

/** Longest accepted caller reference. */
export const MAX_REFERENCE_LENGTH = 128;

/** A caller reference as stored and published. */
export interface SafeReference {
  /** The reference verbatim, or masked when it looks like personal data. */
  value: string;
  /** True when `value` is masked. */
  masked: boolean;
}

/**
 * Personal-looking: an e-mail address, or six or more digits in total (phone numbers, national ids, account
 * numbers). Deliberately broad: a masked business reference costs little, a published phone number does.
 */
export function looksPersonal(reference: string): boolean {
  return reference.includes('@') || (reference.match(/\d/g)?.length ?? 0) >= 6;
}

/** Keep the first two and last two characters, star the rest (at least half the characters are hidden). */
export function maskReference(reference: string): string {
  if (reference.length <= 6) return '*'.repeat(reference.length);
  return `${reference.slice(0, 2)}${'*'.repeat(reference.length - 4)}${reference.slice(-2)}`;
}

/** Validate the optional `reference` field and return what may be stored and published. */
export function safeReference(reference: unknown): SafeReference | null {
  if (reference === undefined || reference === null || reference === '') return null;
  if (
    typeof reference !== 'string' ||
    reference.length > MAX_REFERENCE_LENGTH ||
    !/^[\x20-\x7e]+$/.test(reference)
  ) {
    throw new CoreError(
      'FIELD_INVALID',
      `reference must be printable ASCII of at most ${MAX_REFERENCE_LENGTH} characters.`,
      {
        field: 'reference',
      },
    );
  }
  return looksPersonal(reference)
    ? { value: maskReference(reference), masked: true }
    : { value: reference, masked: false };
}
