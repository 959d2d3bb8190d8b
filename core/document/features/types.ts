/** Shared types of the ID-card security-feature detectors. */

import type { FeatureName } from '../../contracts/document-engine.js';

export type { FeatureName } from '../../contracts/document-engine.js';

/** Built-in feature names a profile can require. */
export const FEATURE_NAMES: readonly FeatureName[] = ['mrz', 'ghost_portrait', 'reference_mark', 'pdf417'];

/** Axis-aligned box in card pixels. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What one detector found on one card. */
export interface FeatureResult {
  feature: FeatureName;
  /** Confidence in [0,1] that the feature is present and genuine. */
  score: number;
  /** Where on the card it was found, or null when not found. */
  region: Region | null;
  /** Wall time of the detector in milliseconds. */
  ms: number;
  /** Detector-specific facts (never raw pixels nor full personal data). */
  details: Record<string, unknown>;
}

/** True for a known feature name. */
export function isFeatureName(value: string): value is FeatureName {
  return (FEATURE_NAMES as readonly string[]).includes(value);
}

/** Round a score to 4 decimals and clamp it into [0,1]. */
export function clampScore(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;
}
