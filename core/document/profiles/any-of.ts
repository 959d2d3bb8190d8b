/**
 * A profile is any-of: its features are evaluated cheapest first and the evaluation stops at the first that reaches
 * its minimum score; features still running are cancelled and the rest never start.
 */
import type { FeatureName, FeatureResult } from '../features/types.js';
import type { DocumentProfile } from './profile.js';

/**
 * Evaluation order, cheapest first, from the detectors' measured cost on a 2-core machine (docs/document-features.md,
 * `npm run bench:document-features`): PDF417 decoding and the MRZ reader answer in tens to a few hundred
 * milliseconds, the reference-mark ORB match in a few hundred, the ghost-portrait window search in up to its budget.
 */
export const FEATURE_COST_ORDER: readonly FeatureName[] = [
  'pdf417',
  'mrz',
  'reference_mark',
  'ghost_portrait',
];

/**
 * Runs one feature's detector; `signal` aborts when the profile is decided or the caller gives up. `earlier` holds
 * the results of the features already evaluated (a located MRZ tells the ghost search where not to look).
 */
export type FeatureDetector = (
  feature: FeatureName,
  signal: AbortSignal,
  earlier: readonly FeatureResult[],
) => Promise<FeatureResult>;

/** What an any-of evaluation did. */
export interface AnyOfOutcome {
  /** Results of the features evaluated, in the order they finished. */
  results: FeatureResult[];
  /** Features never evaluated, or cancelled, because the profile was already decided. */
  skipped: FeatureName[];
}

/** Options of an evaluation. */
export interface AnyOfOptions {
  /** Features evaluated at once (1: one after the other, the least work per card). */
  concurrency?: number;
  /** The caller's cancellation (the request went away): stops the evaluation with its reason. */
  signal?: AbortSignal;
}

/** The profile's features in evaluation order (unknown names last, in profile order). */
export function evaluationOrder(profile: DocumentProfile): FeatureName[] {
  const rank = (f: FeatureName): number => {
    const i = FEATURE_COST_ORDER.indexOf(f);
    return i < 0 ? FEATURE_COST_ORDER.length : i;
  };
  const unique = [...new Set(profile.features.map((f) => f.feature))];
  return unique.sort((a, b) => rank(a) - rank(b));
}

/** Evaluate the profile's features cheapest first until one passes. */
export async function evaluateAnyOf(
  profile: DocumentProfile,
  detect: FeatureDetector,
  options: AnyOfOptions = {},
): Promise<AnyOfOutcome> {
  const order = evaluationOrder(profile);
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const decided = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, decided.signal]) : decided.signal;
  const passes = (r: FeatureResult): boolean =>
    profile.features.some((f) => f.feature === r.feature && r.score >= f.min_score);
  const results: FeatureResult[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < order.length && !signal.aborted) {
      const feature = order[next++]!;
      let result: FeatureResult;
      try {
        result = await detect(feature, signal, [...results]);
      } catch (error) {
        // A feature cancelled because another passed is simply not counted; any other failure is the caller's.
        if (decided.signal.aborted && !options.signal?.aborted) return;
        throw error;
      }
      if (decided.signal.aborted) return;
      results.push(result);
      if (passes(result)) decided.abort(new Error('The profile is decided.'));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, order.length) }, lane));
  options.signal?.throwIfAborted();
  const done = new Set(results.map((r) => r.feature));
  return { results, skipped: order.filter((f) => !done.has(f)) };
}
