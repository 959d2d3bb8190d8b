import { estimateFmr } from './calibration.js';
import type { EnrollmentRow, EnrollmentStore } from './enrollment-store.js';
import { computeEmbedding } from './index/embedding.js';
import { compareFeatures } from './match/index.js';
import { decodeTemplate, openTemplate } from './template/index.js';
import type { FingerprintFeatures } from './types.js';

/** One 1:N candidate, best first. */
export interface SearchCandidate {
  id: number;
  mobile: string;
  score: number;
  estimatedFmr: number;
}

/** What a search looks at. */
export interface SearchOptions {
  /** Candidates returned. */
  k: number;
  /** Vector-index hits re-ranked by the matcher. */
  shortlist: number;
  /** Only templates of this model version are comparable. */
  modelVersion: string;
  /** Skip this number (de-duplication looks for other numbers only). */
  excludeMobile?: string;
}

/** Decrypt and parse one stored template; the mobile number is the authenticated associated data. */
export function openStoredFeatures(row: EnrollmentRow, key: Buffer): FingerprintFeatures {
  return decodeTemplate(openTemplate(row.template, key, row.mobile)).features;
}

/**
 * Recently compared gallery templates, decrypted, in memory only (never on disk). Keeping the same objects lets
 * the matcher reuse its per-print preparation, which costs about as much as a comparison.
 */
export class FeatureCache {
  private readonly entries = new Map<string, FingerprintFeatures>();

  constructor(private readonly capacity = 2000) {}

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
 * 1:N search in two stages: the vector index shortlists the nearest embeddings (cheap, approximate), then the
 * 1:1 matcher re-scores each shortlisted template and the best `k` are returned with their estimated FMR.
 */
export function searchGallery(
  store: EnrollmentStore,
  key: Buffer,
  probe: FingerprintFeatures,
  options: SearchOptions,
  cache: FeatureCache = new FeatureCache(0),
): SearchCandidate[] {
  const hits = store.vectors.nearest(
    computeEmbedding(probe),
    options.shortlist + (options.excludeMobile ? 1 : 0),
  );
  const candidates: SearchCandidate[] = [];
  for (const row of store.getMany(hits.map((h) => h.id))) {
    if (row.mobile === options.excludeMobile || row.modelVersion !== options.modelVersion) continue;
    const score = compareFeatures(probe, cache.get(row, key));
    candidates.push({ id: row.id, mobile: row.mobile, score, estimatedFmr: estimateFmr(score) });
  }
  candidates.sort((a, b) => b.score - a.score);
  return candidates.slice(0, Math.max(1, options.k));
}
