import type { DocumentProfile, ReferenceMarkSummary, StoredProfile } from './document-engine.js';

/** Document profiles (any-of security-feature requirements per card type). */
export interface DocumentProfileRepository {
  /** Insert these built-in profiles where no profile of that name exists (an operator's edits survive restarts). */
  seed(profiles: readonly DocumentProfile[]): Promise<void>;
  /** Every profile, by name. */
  list(): Promise<StoredProfile[]>;
  get(name: string): Promise<StoredProfile | undefined>;
  /** Insert or replace a (validated) profile; a replaced built-in keeps its built-in flag. */
  save(profile: DocumentProfile): Promise<StoredProfile>;
  /** Delete a profile; false when it did not exist. */
  delete(name: string): Promise<boolean>;
}

/** ORB keypoints of a registered mark and its small grey template (core/document's MarkFeatures). */
export interface StoredMarkFeatures {
  count: number;
  width: number;
  height: number;
  /** x, y per keypoint. */
  points: Float32Array;
  scales: Float32Array;
  /** 8 words per keypoint (256-bit BRIEF). */
  descriptors: Uint32Array;
  template?: { data: Uint8Array; width: number; height: number };
}

/** A registered mark with its features, for matching. */
export interface ReferenceMark extends ReferenceMarkSummary {
  features: StoredMarkFeatures;
  descriptorVersion: number;
}

/** What registering a mark stores. */
export interface NewReferenceMark {
  id: string;
  /** Unique. */
  name: string;
  /** PNG preview for the console (a printed mark, never an ID card). */
  preview: Buffer;
  features: StoredMarkFeatures;
  descriptorVersion: number;
  createdAt: string;
}

/** Operator-registered reference marks (issuer emblems, seals) with their precomputed keypoints. */
export interface ReferenceMarkRepository {
  /** Every mark without features, by name. */
  list(): Promise<ReferenceMarkSummary[]>;
  /** Marks with features, by name; only those named when `names` is not empty. */
  load(names: readonly string[]): Promise<ReferenceMark[]>;
  /** The PNG preview of a mark. */
  preview(id: string): Promise<Buffer | undefined>;
  hasName(name: string): Promise<boolean>;
  /** Store a mark; undefined (nothing stored) when the name is taken. */
  add(mark: NewReferenceMark): Promise<ReferenceMarkSummary | undefined>;
  /** Delete a mark; false when it did not exist. */
  delete(id: string): Promise<boolean>;
}
