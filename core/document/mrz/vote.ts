import { runnersUp } from '../ocr/ctc.js';
import type { CandidateChar } from './repair.js';

/**
 * Merge several readings of one line (same length, e.g. the same strip cut with different margins) position
 * by position: each character's score is its probability summed over the readings (runner-ups count too),
 * each reading counted `weights` times (once by default), so a character most cuts agree on wins. An
 * ensemble, not a lottery: trying every mix of readings until the check digits hold would, sooner or later,
 * accept a misreading that happens to keep them.
 */
export function voteLines(
  readings: readonly (readonly CandidateChar[])[],
  weights: readonly number[] = readings.map(() => 1),
): CandidateChar[] {
  const [first] = readings;
  if (!first) return [];
  if (readings.length === 1) return [...first];
  const total = readings.reduce((sum, _, r) => sum + (weights[r] ?? 1), 0);
  return first.map((_, i) => {
    const score = new Map<string, number>();
    for (const [r, reading] of readings.entries()) {
      const c = reading[i];
      const weight = weights[r] ?? 1;
      if (!c) continue;
      score.set(c.char, (score.get(c.char) ?? 0) + weight * c.prob);
      for (const alt of c.alternatives) score.set(alt.char, (score.get(alt.char) ?? 0) + weight * alt.prob);
    }
    const ranked = [...score.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([char, sum]) => ({ char, prob: sum / total }));
    const [best, ...rest] = ranked;
    return { char: best?.char ?? '<', prob: best?.prob ?? 0, alternatives: runnersUp(rest, 3) };
  });
}
