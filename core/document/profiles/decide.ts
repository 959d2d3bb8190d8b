/**
 * The id_card step's decision from a profile and the detector results: SUCCESS with the best passing feature,
 * or REJECTED (reason feature_not_found) with the best score seen. Pure code.
 */
import type { StepResult } from '../../contracts/step-result.js';
import type { FeatureResult } from '../features/types.js';
import type { DocumentProfile } from './profile.js';

/** Decide the step result; `results` holds one entry per profile feature. */
export function decide(profile: DocumentProfile, results: FeatureResult[]): StepResult {
  const passing = profile.features
    .map((requirement) => ({ requirement, result: results.find((r) => r.feature === requirement.feature) }))
    .filter((p): p is { requirement: typeof p.requirement; result: FeatureResult } => p.result !== undefined)
    .filter((p) => p.result.score >= p.requirement.min_score)
    .sort((a, b) => b.result.score - a.result.score);
  const best = passing[0];
  if (best) {
    const { result } = best;
    return {
      status: 'SUCCESS',
      score: result.score,
      message: `Security feature ${result.feature} detected.`,
      extra: {
        verification_score: result.score,
        feature_detected: result.feature,
        region: result.region,
        profile: profile.name,
        features: results,
      },
    };
  }
  const top = [...results].sort((a, b) => b.score - a.score)[0];
  const score = top?.score ?? 0;
  const required = profile.features.map((f) => `${f.feature} >= ${f.min_score}`).join(' or ');
  return {
    status: 'REJECTED',
    score,
    reason: 'feature_not_found',
    message: `No required security feature was detected on the ID card (profile ${profile.name} needs ${required}).`,
    extra: {
      verification_score: score,
      feature_detected: null,
      region: null,
      profile: profile.name,
      best_feature: top?.feature ?? null,
      features: results,
    },
  };
}
