import { describe, expect, it } from 'vitest';
import { CoreError } from '../../errors.js';
import type { FeatureResult } from '../features/types.js';
import { decide } from './decide.js';
import { BUILT_IN_PROFILES, validateProfile, type DocumentProfile } from './profile.js';

function result(feature: FeatureResult['feature'], score: number): FeatureResult {
  return {
    feature,
    score,
    region: score > 0 ? { x: 1, y: 2, width: 3, height: 4 } : null,
    ms: 1,
    details: {},
  };
}

const PROFILE: DocumentProfile = {
  name: 'test',
  description: '',
  features: [
    { feature: 'mrz', min_score: 0.5 },
    { feature: 'reference_mark', min_score: 0.7 },
  ],
  reference_marks: [],
};

describe('validateProfile', () => {
  it('accepts the built-in profiles and normalises optional fields', () => {
    for (const profile of BUILT_IN_PROFILES) expect(validateProfile(profile)).toEqual(profile);
    expect(validateProfile({ name: 'x1', features: [{ feature: 'pdf417', min_score: 1 }] })).toEqual({
      name: 'x1',
      description: '',
      features: [{ feature: 'pdf417', min_score: 1 }],
      reference_marks: [],
    });
  });

  it.each([
    ['not an object', 'default'],
    ['a bad name', { name: 'Bad Name', features: [{ feature: 'mrz', min_score: 0.5 }] }],
    ['no features', { name: 'a', features: [] }],
    ['an unknown feature', { name: 'a', features: [{ feature: 'hologram', min_score: 0.5 }] }],
    ['a score above 1', { name: 'a', features: [{ feature: 'mrz', min_score: 1.5 }] }],
    ['a zero score', { name: 'a', features: [{ feature: 'mrz', min_score: 0 }] }],
    [
      'a duplicate feature',
      {
        name: 'a',
        features: [
          { feature: 'mrz', min_score: 0.5 },
          { feature: 'mrz', min_score: 0.6 },
        ],
      },
    ],
    ['bad mark names', { name: 'a', features: [{ feature: 'mrz', min_score: 0.5 }], reference_marks: [3] }],
  ])('rejects %s with FIELD_INVALID', (_name, input) => {
    expect(() => validateProfile(input)).toThrow(CoreError);
    try {
      validateProfile(input);
    } catch (error) {
      expect((error as CoreError).code).toBe('FIELD_INVALID');
      expect((error as CoreError).status).toBe(400);
    }
  });
});

describe('decide', () => {
  it('succeeds with the best feature that reaches its own minimum', () => {
    const step = decide(PROFILE, [result('mrz', 0.6), result('reference_mark', 0.65)]);
    // reference_mark scores higher but misses its 0.7 minimum: mrz is the detected feature.
    expect(step).toMatchObject({ status: 'SUCCESS', score: 0.6 });
    expect(step.extra).toMatchObject({
      feature_detected: 'mrz',
      verification_score: 0.6,
      profile: 'test',
      region: { x: 1 },
    });
    expect((step.extra?.features as unknown[]).length).toBe(2);
  });

  it('rejects with feature_not_found and the best score seen', () => {
    const step = decide(PROFILE, [result('mrz', 0.3), result('reference_mark', 0.69)]);
    expect(step).toMatchObject({ status: 'REJECTED', reason: 'feature_not_found', score: 0.69 });
    expect(step.extra).toMatchObject({ feature_detected: null, best_feature: 'reference_mark' });
  });

  it('rejects with score 0 when nothing ran', () => {
    expect(decide(PROFILE, [])).toMatchObject({ status: 'REJECTED', score: 0 });
  });
});
