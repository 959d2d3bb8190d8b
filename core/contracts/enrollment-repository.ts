import type { AuditFields } from './audit-chain.js';

/** Metadata of one fingerprint enrollment (never the template). */
export interface EnrollmentMeta {
  /** Stable across re-enrollments of the number; the key of the 1:N index. */
  id: number;
  /** E.164 number; unique. */
  mobile: string;
  modelVersion: string;
  /** Version of the index material (vector and cylinders) stored with it. */
  embeddingVersion: number;
  quality: number;
  minutiaeCount: number;
  createdAt: string;
  updatedAt: string;
}

/** An enrollment with its sealed (encrypted) template. */
export interface EnrollmentRow extends EnrollmentMeta {
  template: Buffer;
}

/** The 1:N index material of an enrollment. */
export interface IndexMaterial {
  /** Coarse 1:N vector (cosine distance). */
  embedding: Float32Array;
  /** Sealed minutia cylinders for the search's second stage. */
  cylinders: Buffer;
  embeddingVersion: number;
}

/** What is written on enrollment: the row and its index material. */
export interface EnrollmentWrite extends IndexMaterial {
  mobile: string;
  template: Buffer;
  modelVersion: string;
  quality: number;
  minutiaeCount: number;
}

/** What the search's second stage reads of a candidate. */
export interface IndexRow {
  id: number;
  mobile: string;
  modelVersion: string;
  /** Sealed cylinders; null for enrollments not indexed yet (made before cylinders were stored). */
  cylinders: Buffer | null;
}

/** One nearest-neighbour hit: the enrollment id and its cosine distance (0 = identical). */
export interface VectorHit {
  id: number;
  distance: number;
}

/** One entry of the enrollment change feed: the latest change of an enrollment, by sequence. */
export interface EnrollmentChange {
  seq: number;
  id: number;
  mobile: string;
  kind: 'saved' | 'removed';
}

/** What commits in the same transaction as an enrollment. */
export interface EnrollmentEffects {
  /**
   * The audit row of the request that made the enrollment, built inside the write once it is known whether it
   * replaces one: the enrollment, its index material, its change-feed entry and this row (chained like any
   * `audit.append`) commit together or not at all.
   */
  audit?: (saved: { id: number; replaced: boolean }) => AuditFields;
}

/**
 * Fingerprint enrollments with their 1:N index material (vector and sealed cylinders), kept in step: every write
 * changes the row, its index material and the change feed in one transaction.
 */
export interface EnrollmentRepository {
  /** The enrollment of an E.164 number. */
  get(mobile: string): Promise<EnrollmentRow | undefined>;
  /** Enrollments by id, in the order asked (missing ids skipped). */
  getMany(ids: readonly number[]): Promise<EnrollmentRow[]>;
  /** The second-stage view of candidates, in the order asked (missing ids skipped). */
  indexRows(ids: readonly number[]): Promise<IndexRow[]>;
  /** Up to `limit` index rows of a model version with cylinders and ids above `afterId`, by id (bulk loads). */
  indexRowsAfter(modelVersion: string, afterId: number, limit: number): Promise<IndexRow[]>;
  /** Up to `limit` enrollments with ids above `afterId` whose index material is not of `embeddingVersion`, by id. */
  listUnindexed(embeddingVersion: number, afterId: number, limit: number): Promise<EnrollmentRow[]>;
  /** Replace the index material of these enrollments, in one transaction (rows deleted meanwhile are skipped). */
  reindex(entries: readonly (IndexMaterial & { id: number })[]): Promise<void>;
  /**
   * Insert or replace the enrollment of `write.mobile` with its index material, and its `effects` (its audit row),
   * in one transaction; `replaced` tells a re-enrollment.
   */
  save(write: EnrollmentWrite, effects?: EnrollmentEffects): Promise<{ id: number; replaced: boolean }>;
  /** `save` for many numbers in one transaction (bulk loads of distinct galleries). */
  saveMany(writes: readonly EnrollmentWrite[]): Promise<{ id: number; replaced: boolean }[]>;
  /** Delete the enrollment of a number with its index material; its id, or undefined when there was none. */
  remove(mobile: string): Promise<number | undefined>;
  count(): Promise<number>;
  /** Enrollments whose template was made by another model version, oldest update first. */
  listOutdated(modelVersion: string): Promise<EnrollmentMeta[]>;
  /** About the `k` nearest enrollments to a vector, nearest first (the search's first stage). */
  nearest(embedding: Float32Array, k: number): Promise<VectorHit[]>;
  /**
   * Changes after `seq`, oldest first, at most `limit`: the latest change of each enrollment changed since (a
   * replica's in-memory index follows the others' writes with it). Starts empty on a new store.
   */
  changesAfter(seq: number, limit: number): Promise<EnrollmentChange[]>;
  /** Sequence of the latest change (0 when none): where a reader that just loaded everything starts following. */
  lastChangeSeq(): Promise<number>;
  /**
   * Call `listener` when enrollments may have changed (a shared store's change notices, and whenever its notice
   * connection opens or comes back, when some may have been lost); a follower then reads `changesAfter`. Returns
   * the function that stops it. A store with one writer may never call it.
   */
  watch(listener: () => void): () => void;
}
