/**
 * The `mrz` feature: an ICAO 9303 MRZ (TD1, TD2, TD3, MRV) is present and every check digit is valid.
 * Reading is the MRZ module's (passed in, so the detector can be tested with any reader).
 */
import type { DecodedImage } from '../../imaging/decode.js';
import { clampScore, type FeatureResult } from './types.js';

/** The part of an MRZ reading this detector uses (core/document/mrz's `MrzReading`). */
export interface MrzReadingLike {
  format: string;
  valid: boolean;
  checks: { name: string; valid: boolean }[];
  region: { x: number; y: number; width: number; height: number };
  confidence: number;
}

/** Reads the MRZ of an image, null when there is none; `signal` stops a read whose answer is no longer wanted. */
export type MrzReader = (
  image: DecodedImage,
  options?: { signal?: AbortSignal },
) => Promise<MrzReadingLike | null>;

/**
 * Score: the reading's confidence when every check holds; otherwise at most 0.5 x the share of checks that hold,
 * so an MRZ with a wrong check digit never reaches a sane minimum (>= 0.5) however clearly it was read.
 */
export function mrzScore(reading: MrzReadingLike): number {
  if (reading.valid) return clampScore(Math.max(0.5, reading.confidence));
  const total = reading.checks.length;
  const passed = reading.checks.filter((c) => c.valid).length;
  return clampScore(total === 0 ? 0 : 0.49 * (passed / total) * reading.confidence);
}

/** Run the MRZ detector on a card. */
export async function detectMrz(
  image: DecodedImage,
  read: MrzReader,
  signal?: AbortSignal,
): Promise<FeatureResult> {
  const started = performance.now();
  const reading = await read(image, signal ? { signal } : {});
  const ms = Math.round(performance.now() - started);
  if (!reading) return { feature: 'mrz', score: 0, region: null, ms, details: { found: false } };
  return {
    feature: 'mrz',
    score: mrzScore(reading),
    region: reading.region,
    ms,
    details: {
      found: true,
      format: reading.format,
      valid: reading.valid,
      failed_checks: reading.checks.filter((c) => !c.valid).map((c) => c.name),
      confidence: clampScore(reading.confidence),
    },
  };
}
