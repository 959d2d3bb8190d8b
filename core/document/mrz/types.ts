import type { MrzFormat } from './layout.js';

/** An MRZ read from a document image. */
export interface MrzReading {
  format: MrzFormat;
  /** The MRZ lines after repair. */
  lines: string[];
  /** Every check holds: each check digit, country code (ICAO list), date (calendar) and the document code. */
  valid: boolean;
  /**
   * Each check digit (`...CheckDigit`), country code (`issuingStateCode`, `nationalityCode`), date
   * (`birthDateCalendar`, `expirationDateCalendar`) and the document code (`documentCode`) with its outcome.
   */
  checks: { name: string; valid: boolean }[];
  /** Issuing state and nationality codes, each checked against the ICAO list (a valid check digit does not cover them). */
  countries: { name: string; code: string; valid: boolean }[];
  /** Parsed fields (the `mrz` package's names: documentNumber, birthDate YYMMDD, lastName, ...). */
  fields: Record<string, string | null>;
  /** Bounding box of the zone in image pixels (after EXIF rotation). */
  region: { x: number; y: number; width: number; height: number };
  /** Mean character probability of the recognised lines, 0–1. */
  confidence: number;
  /** Time spent reading, in milliseconds. */
  ms: number;
}
