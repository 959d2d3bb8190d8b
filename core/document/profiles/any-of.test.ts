import { describe, expect, it } from 'vitest';
import type { FeatureName, FeatureResult } from '../features/types.js';
import { evaluateAnyOf, evaluationOrder } from './any-of.js';
import type { DocumentProfile } from './profile.js';

const PROFILE: DocumentProfile = {
  name: 'all',
  description: '',
  features: [
    { feature: 'ghost_portrait', min_score: 0.5 },
    { feature: 'reference_mark', min_score: 0.5 },
    { feature: 'mrz', min_score: 0.5 },
    { feature: 'pdf417', min_score: 0.9 },
  ],
  reference_marks: [],
};

const result = (feature: FeatureName, score: number): FeatureResult => ({
  feature,
  score,
  region: null,
  ms: 1,
  details: {},
});

/** A detector that answers `scores[feature]` after its delay, recording calls and which were cancelled. */
function detector(
  scores: Partial<Record<FeatureName, number>>,
  delayMs = 0,
  delays: Partial<Record<FeatureName, number>> = {},
) {
  const calls: FeatureName[] = [];
  const cancelled: FeatureName[] = [];
  const detect = (feature: FeatureName, signal: AbortSignal): Promise<FeatureResult> => {
    calls.push(feature);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        cancelled.push(feature);
        reject(signal.reason as Error);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(result(feature, scores[feature] ?? 0));
      }, delays[feature] ?? delayMs);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  };
  return { detect, calls, cancelled };
}

describe('any-of evaluation', () => {
  it('orders the features cheapest first', () => {
    expect(evaluationOrder(PROFILE)).toEqual(['pdf417', 'mrz', 'reference_mark', 'ghost_portrait']);
  });

  it('stops at the first feature that passes and never starts the rest', async () => {
    const d = detector({ mrz: 0.9, ghost_portrait: 0.9 });
    const outcome = await evaluateAnyOf(PROFILE, d.detect);
    expect(d.calls).toEqual(['pdf417', 'mrz']);
    expect(outcome.results.map((r) => r.feature)).toEqual(['pdf417', 'mrz']);
    expect(outcome.skipped).toEqual(['reference_mark', 'ghost_portrait']);
  });

  it('evaluates every feature when none passes (a score under its own minimum does not count)', async () => {
    const d = detector({ pdf417: 0.8, mrz: 0.4 });
    const outcome = await evaluateAnyOf(PROFILE, d.detect);
    expect(d.calls).toHaveLength(4);
    expect(outcome.skipped).toEqual([]);
  });

  it('shows each detector the results of the features evaluated before it', async () => {
    const seen: Partial<Record<FeatureName, FeatureName[]>> = {};
    await evaluateAnyOf(PROFILE, (feature, _signal, earlier) => {
      seen[feature] = earlier.map((r) => r.feature);
      return Promise.resolve(result(feature, 0));
    });
    expect(seen).toEqual({
      pdf417: [],
      mrz: ['pdf417'],
      reference_mark: ['pdf417', 'mrz'],
      ghost_portrait: ['pdf417', 'mrz', 'reference_mark'],
    });
  });

  it('cancels the features still running when one passes', async () => {
    const d = detector({ pdf417: 1 }, 5_000, { pdf417: 20 });
    const outcome = await evaluateAnyOf(PROFILE, d.detect, { concurrency: 2 });
    expect(d.calls).toEqual(['pdf417', 'mrz']);
    expect(d.cancelled).toEqual(['mrz']);
    expect(outcome.results.map((r) => r.feature)).toEqual(['pdf417']);
    expect(outcome.skipped).toEqual(['mrz', 'reference_mark', 'ghost_portrait']);
  });

  it('stops with the caller’s reason when the caller cancels', async () => {
    const d = detector({}, 5_000);
    const caller = new AbortController();
    const running = evaluateAnyOf(PROFILE, d.detect, { signal: caller.signal });
    caller.abort(new Error('client went away'));
    await expect(running).rejects.toThrow('client went away');
    expect(d.calls).toEqual(['pdf417']);
    expect(d.cancelled).toEqual(['pdf417']);
  });
});
