/**
 * Document profiles: for a card type, which security features it must show (any of them suffices) and the
 * minimum score of each. Pure validation and the built-in profiles.
 */
import { CoreError } from '../../errors.js';
import type { DocumentProfile, FeatureRequirement } from '../../contracts/document-engine.js';
import { FEATURE_NAMES, isFeatureName } from '../features/types.js';

export type { DocumentProfile, FeatureRequirement } from '../../contracts/document-engine.js';

/** Profile used when a request names none. */
export const DEFAULT_PROFILE_NAME = 'default';

/**
 * Built-in profiles, seeded on first start and editable afterwards. 'default' accepts a valid MRZ or a ghost
 * portrait matching the main portrait: both are checked without operator set-up and neither passes on a card
 * with a wrong check digit or without a ghost image (measurements in docs/decisions.md).
 */
export const BUILT_IN_PROFILES: readonly DocumentProfile[] = [
  {
    name: DEFAULT_PROFILE_NAME,
    description: 'Any ICAO document: a valid MRZ, or a ghost portrait matching the main portrait.',
    features: [
      { feature: 'mrz', min_score: 0.5 },
      { feature: 'ghost_portrait', min_score: 0.5 },
    ],
    reference_marks: [],
  },
  {
    name: 'national_id',
    description: 'National ID card: a registered issuer mark, a valid MRZ or a matching ghost portrait.',
    features: [
      { feature: 'reference_mark', min_score: 0.5 },
      { feature: 'mrz', min_score: 0.5 },
      { feature: 'ghost_portrait', min_score: 0.5 },
    ],
    reference_marks: [],
  },
  {
    name: 'drivers_licence',
    description: "North-American driver's licence: an AAMVA PDF417 barcode, or a registered issuer mark.",
    features: [
      { feature: 'pdf417', min_score: 0.9 },
      { feature: 'reference_mark', min_score: 0.5 },
    ],
    reference_marks: [],
  },
];

const NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

function invalid(message: string, field = 'profile'): CoreError {
  return new CoreError('FIELD_INVALID', message, { field });
}

/** True for a syntactically valid profile name. */
export function isProfileName(value: string): boolean {
  return NAME.test(value);
}

/** Validate untrusted input (console edits) into a profile; throws CoreError FIELD_INVALID (400). */
export function validateProfile(input: unknown): DocumentProfile {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw invalid('A profile must be an object.');
  const value = input as Record<string, unknown>;
  const name = value.name;
  if (typeof name !== 'string' || !isProfileName(name)) {
    throw invalid(
      'name must be 1-40 characters of a-z, 0-9, "_" or "-", starting with a letter or digit.',
      'name',
    );
  }
  const description = value.description ?? '';
  if (typeof description !== 'string' || description.length > 500)
    throw invalid('description must be a string of at most 500 characters.', 'description');
  if (!Array.isArray(value.features) || value.features.length === 0) {
    throw invalid('features must list at least one feature.', 'features');
  }
  const seen = new Set<string>();
  const features = value.features.map((item: unknown): FeatureRequirement => {
    const entry = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const feature = entry.feature;
    if (typeof feature !== 'string' || !isFeatureName(feature)) {
      throw invalid(`feature must be one of ${FEATURE_NAMES.join(', ')}.`, 'features');
    }
    if (seen.has(feature)) throw invalid(`feature ${feature} is listed twice.`, 'features');
    seen.add(feature);
    const minScore = entry.min_score;
    if (typeof minScore !== 'number' || !Number.isFinite(minScore) || minScore <= 0 || minScore > 1) {
      throw invalid(`min_score of ${feature} must be a number in (0, 1].`, 'features');
    }
    return { feature, min_score: minScore };
  });
  const marks = value.reference_marks ?? [];
  if (!Array.isArray(marks) || marks.some((m) => typeof m !== 'string' || m.length === 0 || m.length > 80)) {
    throw invalid('reference_marks must be a list of mark names.', 'reference_marks');
  }
  return { name, description, features, reference_marks: [...new Set(marks as string[])] };
}
