import type { Settings } from '../settings/settings.js';
import type { FingerTurn } from './match/index.js';

/** What happens when a finger being enrolled matches an enrollment under another number. */
export type DedupMode = 'flag' | 'reject';

/** Operator settings of the fingerprint engine, read on every request so console changes apply at once. */
export interface FingerprintSettings {
  /** `fingerprint.dedup`: flag the duplicate in the response, or refuse the enrollment (409). */
  dedup: DedupMode;
  /** `fingerprint.qualityFloor`: enrollment refuses prints below this quality (0-100) with 422. */
  qualityFloor: number;
  /** `fingerprint.minMinutiae`: enrollment refuses prints with fewer minutiae with 422. */
  minMinutiae: number;
  /** 1:1 decision threshold as "1 false match in N": `fingerprint.threshold` (console) or `fingerprint.thresholdOneInN`. */
  oneInN: number;
  /**
   * `fingerprint.dedupOneInN`: operating point of duplicate detection (never looser than `oneInN`). The check runs
   * against the whole gallery, so false flags grow with its size: raise it for large galleries in reject mode.
   */
  dedupOneInN: number;
  /** `fingerprint.searchCandidates`: vector-index candidates ranked by their minutia cylinders in a 1:N search. */
  candidates: number;
  /**
   * `fingerprint.searchHashCandidates`: minutia hash-index candidates added to the vector index's for the cylinder
   * ranking (0 turns the hash index's stage off).
   */
  hashCandidates: number;
  /**
   * `fingerprint.searchStarCandidates`: star-edge index candidates (index/star-edges.ts) added to the others for the
   * cylinder ranking (0 turns that index's stage off).
   */
  starCandidates: number;
  /** `fingerprint.searchShortlist`: best cylinder-ranked candidates re-ranked by the matcher in a 1:N search. */
  shortlist: number;
  /**
   * `fingerprint.turn`: 'upright' when the reader is fixed in place, so a finger is laid on it roughly the same way
   * each time (alignments turned past 60 degrees score less, past 120 not at all); 'any' when it may face any way.
   * Scores and thresholds follow the setting's own calibration; 'any' finds more chance matches with other fingers.
   */
  turn: FingerTurn;
}

/**
 * Defaults. Quality floor 20 and 10 minutiae: over the 320 FVC 2002/2004 impressions the extractor's quality has
 * its 1st percentile at 21 and its 2nd-percentile minutiae count at 10, so a cooperative capture passes while
 * blank, smudged or cut-off prints (quality 0-16, a handful of minutiae) are refused.
 */
export const DEFAULT_FINGERPRINT_SETTINGS: FingerprintSettings = {
  dedup: 'flag',
  qualityFloor: 20,
  minMinutiae: 10,
  oneInN: 10_000,
  dedupOneInN: 10_000,
  // 100k gallery, 2-core machine (docs/fingerprint-platform.md). Stop 15: the minutia hash and star-edge indexes
  // split by minutia direction, and the hash rank in the second stage's score. The lists then rank the finger so
  // much better that 500 vector + 1000 hash + 300 star candidates (fewer for probes of over 36 cylinders) and a
  // shortlist of 50 bring the genuine print of 233 of the 237 saved-gallery probes above the 1-in-100k score to the
  // matcher (stop 14, with 1000 + 1500 + 300: 224). Stop 18: with the matcher's turn prior, the exhaustive search of
  // the bench's 100k gallery wins 239 of 280 probes instead of 231; a shortlist of 50 reached 236 of them (98.7%),
  // 80 reaches 237 (99.2%) for a search p95 of 224 ms against 201 ms on this 2-core machine.
  candidates: 500,
  hashCandidates: 1000,
  starCandidates: 300,
  shortlist: 80,
  turn: 'upright',
};

function positive(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

function nonNegative(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** Current settings, with invalid stored values replaced by the defaults. */
export function readFingerprintSettings(settings: Settings | undefined): FingerprintSettings {
  const d = DEFAULT_FINGERPRINT_SETTINGS;
  if (!settings) return { ...d };
  const consoleChoice = settings.get<{ oneInN?: unknown } | null>('fingerprint.threshold', null);
  const oneInN = positive(
    consoleChoice?.oneInN,
    positive(settings.get<unknown>('fingerprint.thresholdOneInN', d.oneInN), d.oneInN),
  );
  const dedup = settings.get<unknown>('fingerprint.dedup', d.dedup);
  const floor = settings.get<unknown>('fingerprint.qualityFloor', d.qualityFloor);
  return {
    dedup: dedup === 'reject' ? 'reject' : 'flag',
    qualityFloor: typeof floor === 'number' && floor >= 0 && floor <= 100 ? floor : d.qualityFloor,
    minMinutiae: positive(settings.get<unknown>('fingerprint.minMinutiae', d.minMinutiae), d.minMinutiae),
    oneInN,
    dedupOneInN: Math.max(
      oneInN,
      positive(settings.get<unknown>('fingerprint.dedupOneInN', d.dedupOneInN), d.dedupOneInN),
    ),
    candidates: Math.round(
      positive(settings.get<unknown>('fingerprint.searchCandidates', d.candidates), d.candidates),
    ),
    hashCandidates: Math.round(
      nonNegative(
        settings.get<unknown>('fingerprint.searchHashCandidates', d.hashCandidates),
        d.hashCandidates,
      ),
    ),
    starCandidates: Math.round(
      nonNegative(
        settings.get<unknown>('fingerprint.searchStarCandidates', d.starCandidates),
        d.starCandidates,
      ),
    ),
    shortlist: Math.round(
      positive(settings.get<unknown>('fingerprint.searchShortlist', d.shortlist), d.shortlist),
    ),
    turn: settings.get<unknown>('fingerprint.turn', d.turn) === 'any' ? 'any' : 'upright',
  };
}
