import type { DecodedImage } from '../imaging/decode.js';
import type { CardFaces } from './face-engine.js';
import type { EngineHealth, StepResult } from './step-result.js';

/** One of the built-in security features a profile can require. */
export type FeatureName = 'mrz' | 'ghost_portrait' | 'reference_mark' | 'pdf417';

/** One acceptable feature of a profile. */
export interface FeatureRequirement {
  feature: FeatureName;
  /** Minimum detector score in [0,1] for the feature to count as present. */
  min_score: number;
}

/** A card type's requirements, as stored and as edited in the console. */
export interface DocumentProfile {
  /** Identifier used in the `profile` request field: 1-40 of a-z, 0-9, '_', '-'. */
  name: string;
  description: string;
  /** The card passes when any one of these reaches its minimum score. */
  features: FeatureRequirement[];
  /** Names of registered reference marks to look for; empty means every registered mark. */
  reference_marks: string[];
}

/** A stored profile with its bookkeeping. */
export interface StoredProfile extends DocumentProfile {
  built_in: boolean;
  updated_at: string;
}

/** What the console lists about a registered reference mark. */
export interface ReferenceMarkSummary {
  id: string;
  name: string;
  width: number;
  height: number;
  keypoints: number;
  created_at: string;
}

/** Options of the id_card step. */
export interface IdCardCheckOptions {
  /** Document profile name (default `default`); unknown names are 400 FIELD_INVALID. */
  profile?: string;
  /**
   * The face engine's analysis of this same image (the face_match step's), reused instead of detecting again; a
   * promise when that step is still running (the ghost search waits for it, the cheaper features do not).
   */
  card?: CardFaces | PromiseLike<CardFaces>;
  /** Cancels the check (the request went away): running detector jobs are stopped, the rest never start. */
  signal?: AbortSignal;
}

/** The ID-document engine: the card's security-feature check and the profiles and marks it checks against. */
export interface DocumentEngine {
  /** Required security feature of the card (the id_card step of /v2/verify and /v1/verify); unknown profile is 400. */
  checkIdCard(image: DecodedImage, options?: IdCardCheckOptions): Promise<StepResult>;
  /** Every stored profile, by name. */
  listProfiles(): Promise<StoredProfile[]>;
  /** Validate and store a profile (insert or replace); 400 naming the first bad field. */
  saveProfile(input: unknown): Promise<StoredProfile>;
  /** Delete a profile; 404 when unknown, 409 for the default profile. */
  deleteProfile(name: string): Promise<void>;
  /** Every registered reference mark (without features). */
  listReferenceMarks(): Promise<ReferenceMarkSummary[]>;
  /** PNG preview of a registered mark; 404 when unknown. */
  referenceMarkPreview(id: string): Promise<Buffer>;
  /** Register a printed mark from an image file (400 name, 409 duplicate, 415 not an image, 422 too little detail). */
  addReferenceMark(name: string, imageBytes: Buffer): Promise<ReferenceMarkSummary>;
  /** Delete a registered mark; 404 when unknown. */
  deleteReferenceMark(id: string): Promise<void>;
  health(): Promise<EngineHealth>;
}
