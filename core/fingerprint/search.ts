import type { EnrollmentRepository, EnrollmentRow } from '../contracts/enrollment-repository.js';
import type { SearchCandidate } from '../contracts/fingerprint-engine.js';
import { estimateFmr } from './calibration.js';
import {
  computeCylinders,
  cylinderSimilarity,
  decodeCylinders,
  encodeCylinders,
  type Cylinders,
} from './index/cylinders.js';
import { computeEmbedding } from './index/embedding.js';
import { starProbe, type StarVotes } from './index/star-edges.js';
import type { GalleryIndex, IndexedPrint } from './index/gallery-index.js';
import { compareFeatures, type FingerTurn } from './match/index.js';
import { decodeTemplate, openTemplate, sealTemplate } from './template/index.js';
import type { FingerprintFeatures } from './types.js';

/** Probe cylinders up to which a search looks at all its candidates: bigger probes make the slowest tail. */
const TYPICAL_CYLINDERS = 36;
/**
 * A bigger probe gives up embedding candidates by the cube of TYPICAL_CYLINDERS / its cylinders and star-edge ones by
 * the square; the hash list, which ranks the finger best, keeps its full count.
 */
const EMBEDDING_CUT = 3;
const STAR_CUT = 2;
/** Weight of log(1 + star-edge vote) in the second stage: it lifts genuine prints whose cylinders rank low. */
const STAR_WEIGHT = 0.02;
/**
 * Weight of log(HASH_RANK_SPAN / (1 + rank)) for the hash list's best HASH_RANK_SPAN: that list often ranks the finger
 * first when its cylinders rank low.
 */
const HASH_WEIGHT = 0.01;
const HASH_RANK_SPAN = 1000;

export type { SearchCandidate } from '../contracts/fingerprint-engine.js';

/** What a search looks at. */
export interface SearchOptions {
  /** Candidates returned. */
  k: number;
  /** Vector-index candidates ranked by their minutia cylinders (second stage). */
  candidates: number;
  /** Hash-index candidates (index/minutia-hashes.ts) added to the vector index's for the second stage. */
  hashCandidates: number;
  /** Star-edge index candidates (index/star-edges.ts) added to the others for the second stage. */
  starCandidates: number;
  /** Best second-stage candidates re-ranked by the matcher (third stage). */
  shortlist: number;
  /** Only templates of this model version are comparable. */
  modelVersion: string;
  /** How the matcher lets the prints turn (settings.ts), and so which calibration the estimated FMRs come from. */
  turn: FingerTurn;
  /** Skip this number (de-duplication looks for other numbers only). */
  excludeMobile?: string;
}

/** Decrypt and parse one stored template; the mobile number is the authenticated associated data. */
export function openStoredFeatures(row: EnrollmentRow, key: Buffer): FingerprintFeatures {
  return decodeTemplate(openTemplate(row.template, key, row.mobile)).features;
}

/** Associated data binding sealed cylinders to their number (and apart from the template's). */
const cylindersAad = (mobile: string): string => `cylinders:${mobile}`;

/** The sealed (AES-256-GCM, template key) cylinders stored with an enrollment. */
export function sealCylinders(cylinders: Cylinders, key: Buffer, mobile: string): Buffer {
  return sealTemplate(encodeCylinders(cylinders), key, cylindersAad(mobile));
}

/** Decrypt and decode an enrollment's stored cylinders (throws on another cylinder version). */
export function openCylinders(sealed: Buffer, key: Buffer, mobile: string): Cylinders {
  return decodeCylinders(openTemplate(sealed, key, cylindersAad(mobile)));
}

/**
 * Recently compared gallery templates, decrypted, in memory only (never on disk). Keeping the same objects lets
 * the matcher reuse its per-print preparation, which costs about as much as a comparison.
 */
export class FeatureCache {
  private readonly entries = new Map<string, FingerprintFeatures>();

  /**
   * 1,000 entries hold the shortlists of the last dozen searches (a decrypted template and its preparation take
   * about 18 kB: 18 MB in all).
   */
  constructor(private readonly capacity = 1000) {}

  /** The features of a row, from the cache or decrypted now. */
  get(row: EnrollmentRow, key: Buffer): FingerprintFeatures {
    const id = `${row.id}:${row.updatedAt}`;
    const hit = this.entries.get(id);
    if (hit) {
      // Re-insert: Map order is the recency order.
      this.entries.delete(id);
      this.entries.set(id, hit);
      return hit;
    }
    const features = openStoredFeatures(row, key);
    this.entries.set(id, features);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value ?? id);
    return features;
  }

  /** Forget everything (after a delete, so no decrypted copy outlives its enrollment). */
  clear(): void {
    this.entries.clear();
  }
}

/**
 * First stage: the enrollment ids a probe's second stage looks at, the `candidates` nearest global embeddings
 * (sharded vec0 KNN) first, then the `hashCandidates` best of the minutia hash index and the `starCandidates` best
 * of the star-edge index not among them. They miss different probes: the embedding loses partial prints whose
 * histogram is dominated by the part the enrollment does not show, the hashes lose prints with few close
 * cylinders, and the star edges find some of both (single edges between true minutiae survive where whole
 * neighbourhoods change).
 */
export async function firstStage(
  store: EnrollmentRepository,
  probe: FingerprintFeatures,
  probeCylinders: Cylinders,
  options: Pick<
    SearchOptions,
    'candidates' | 'hashCandidates' | 'starCandidates' | 'shortlist' | 'excludeMobile'
  >,
  index: GalleryIndex,
): Promise<{ ids: number[]; starScore: StarVotes['score']; hashRank: (id: number) => number }> {
  const extra = options.excludeMobile ? 1 : 0;
  // The second stage costs in proportion to the probe's cylinders times the candidates: a print with many minutiae
  // gets fewer embedding and star-edge candidates (EMBEDDING_CUT, STAR_CUT), so its search costs about what a
  // typical one's does.
  const share = Math.min(1, TYPICAL_CYLINDERS / Math.max(1, probeCylinders.n));
  const count = (n: number, cut: number): number => (n > 0 ? Math.ceil(n * share ** cut) + extra : 0);
  const wanted = Math.max(options.shortlist + extra, count(options.candidates, EMBEDDING_CUT));
  const ids = (await store.nearest(computeEmbedding(probe), wanted)).map((h) => h.id);
  const hashed =
    options.hashCandidates > 0 ? index.hashes.nearest(probeCylinders, count(options.hashCandidates, 0)) : [];
  const starred: StarVotes =
    options.starCandidates > 0
      ? index.stars.query(starProbe(probe), count(options.starCandidates, STAR_CUT))
      : { ids: [], score: () => 0 };
  const hashRanks = new Map(hashed.map((id, rank) => [id, rank]));
  return {
    ids: [...new Set([...ids, ...hashed, ...starred.ids])],
    starScore: starred.score,
    hashRank: (id) => hashRanks.get(id) ?? -1,
  };
}

/** The cylinders of candidates the loading in-memory index does not hold yet, from their sealed copies. */
async function readPending(
  store: EnrollmentRepository,
  key: Buffer,
  index: GalleryIndex,
  ids: number[],
  options: Pick<SearchOptions, 'modelVersion'>,
): Promise<Map<number, IndexedPrint>> {
  const pending = new Map<number, IndexedPrint>();
  const missing = ids.filter((id) => !index.has(id));
  if (missing.length === 0) return pending;
  const stale: number[] = [];
  for (const row of await store.indexRows(missing)) {
    if (row.modelVersion !== options.modelVersion) continue;
    try {
      if (!row.cylinders) throw new Error('No cylinders yet');
      pending.set(row.id, { mobile: row.mobile, cylinders: openCylinders(row.cylinders, key, row.mobile) });
    } catch {
      // Not rebuilt yet after an index-version change: from the template (slower, only until the engine's pass).
      stale.push(row.id);
    }
  }
  for (const row of await store.getMany(stale)) {
    try {
      pending.set(row.id, { mobile: row.mobile, cylinders: computeCylinders(openStoredFeatures(row, key)) });
    } catch {
      // An unreadable template cannot be compared; the engine's pass reports it.
    }
  }
  return pending;
}

/**
 * 1:N search in three stages. (1) `firstStage`: the nearest global embeddings and the best of the minutia hash
 * and star-edge indexes (cheap, coarse). (2) Each candidate's minutia cylinders, held decrypted by the engine's
 * in-memory index (or read from the database while that index is still loading after a start), are compared with
 * the probe's, and its star-edge vote and hash rank are added; the shortlist is the nearest quarter of `shortlist`
 * by embedding, filled up with the best of this score. (3) The 1:1 matcher re-scores those and the best `k` are
 * returned with their estimated FMR.
 */
export async function searchGallery(
  store: EnrollmentRepository,
  key: Buffer,
  index: GalleryIndex,
  probe: FingerprintFeatures,
  options: SearchOptions,
  cache: FeatureCache = new FeatureCache(0),
): Promise<SearchCandidate[]> {
  const probeCylinders = computeCylinders(probe);
  const { ids, starScore, hashRank } = await firstStage(store, probe, probeCylinders, options, index);
  // Once loaded, the in-memory index holds every enrollment of the engine's model version (the others are not
  // comparable). While it is still loading, the candidates it does not hold yet are read and opened here.
  const pending = index.loaded
    ? new Map<number, IndexedPrint>()
    : await readPending(store, key, index, ids, options);
  const ranked: { id: number; local: number }[] = [];
  for (const id of ids) {
    const read = pending.get(id);
    const mobile = index.mobile(id) ?? read?.mobile;
    if (mobile === undefined || mobile === options.excludeMobile) continue;
    const rank = hashRank(id);
    const hashTerm =
      rank >= 0 && rank < HASH_RANK_SPAN ? HASH_WEIGHT * Math.log(HASH_RANK_SPAN / (1 + rank)) : 0;
    const local =
      (index.similarity(probeCylinders, id) ?? cylinderSimilarity(probeCylinders, read!.cylinders)) +
      STAR_WEIGHT * Math.log1p(starScore(id)) +
      hashTerm;
    ranked.push({ id, local });
  }
  // The nearest embeddings keep a quarter of the shortlist: on some probes the global vector ranks the finger
  // well while the cylinders do not (few minutiae in common, so the best local pairs are chance ones).
  const byVector = ranked.slice(0, Math.ceil(options.shortlist / 4)).map((r) => r.id);
  // Stable sort: equal second-stage scores keep the first stage's order.
  ranked.sort((a, b) => b.local - a.local);
  const shortlist = [...new Set([...byVector, ...ranked.map((r) => r.id)])].slice(0, options.shortlist);
  const candidates: SearchCandidate[] = [];
  for (const row of await store.getMany(shortlist)) {
    // The row decides (another process may have re-enrolled it under another model version since it was indexed).
    if (row.mobile === options.excludeMobile || row.modelVersion !== options.modelVersion) continue;
    const score = compareFeatures(probe, cache.get(row, key), options.turn);
    candidates.push({
      id: row.id,
      mobile: row.mobile,
      score,
      estimatedFmr: estimateFmr(score, options.turn),
    });
  }
  candidates.sort((a, b) => b.score - a.score);
  return candidates.slice(0, Math.max(1, options.k));
}
