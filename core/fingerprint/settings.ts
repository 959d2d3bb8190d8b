import { SETTINGS } from '../settings/schema.js';
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
  /** `fingerprint.thresholdOneInN`: the 1:1 decision threshold as "1 false match in N". */
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

/** Defaults, from the settings schema (core/settings/schema.ts, where each is explained). */
export const DEFAULT_FINGERPRINT_SETTINGS: FingerprintSettings = {
  dedup: SETTINGS['fingerprint.dedup'].default,
  qualityFloor: SETTINGS['fingerprint.qualityFloor'].default,
  minMinutiae: SETTINGS['fingerprint.minMinutiae'].default,
  oneInN: SETTINGS['fingerprint.thresholdOneInN'].default,
  dedupOneInN: SETTINGS['fingerprint.dedupOneInN'].default,
  candidates: SETTINGS['fingerprint.searchCandidates'].default,
  hashCandidates: SETTINGS['fingerprint.searchHashCandidates'].default,
  starCandidates: SETTINGS['fingerprint.searchStarCandidates'].default,
  shortlist: SETTINGS['fingerprint.searchShortlist'].default,
  turn: SETTINGS['fingerprint.turn'].default,
};

/** Current settings (values the schema refuses read as the defaults). */
export function readFingerprintSettings(settings: Settings | undefined): FingerprintSettings {
  if (!settings) return { ...DEFAULT_FINGERPRINT_SETTINGS };
  const oneInN = settings.get('fingerprint.thresholdOneInN');
  return {
    dedup: settings.get('fingerprint.dedup'),
    qualityFloor: settings.get('fingerprint.qualityFloor'),
    minMinutiae: settings.get('fingerprint.minMinutiae'),
    oneInN,
    dedupOneInN: Math.max(oneInN, settings.get('fingerprint.dedupOneInN')),
    candidates: Math.round(settings.get('fingerprint.searchCandidates')),
    hashCandidates: Math.round(settings.get('fingerprint.searchHashCandidates')),
    starCandidates: Math.round(settings.get('fingerprint.searchStarCandidates')),
    shortlist: Math.round(settings.get('fingerprint.searchShortlist')),
    turn: settings.get('fingerprint.turn'),
  };
}
