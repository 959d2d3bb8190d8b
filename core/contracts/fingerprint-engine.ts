import type { DecodedImage } from '../imaging/decode.js';
import type { AuditFields } from './audit-chain.js';
import type { Calibration, EngineHealth, StepResult } from './step-result.js';

/** What an enrollment answers (spread into the API's success body). */
export type EnrollOutcome = {
  quality_score: number;
  /** How much the image looks like a fingerprint, 0-100 (50 and above passes). */
  fingerprint_likeness?: number;
  minutiae_count: number;
  model_version: string;
  /** True when the number had an enrollment, now replaced. */
  replaced: boolean;
  /** Masked number of another enrollment of the same finger (de-duplication in flag mode). */
  duplicate_of?: string;
  duplicate_score?: number;
};

/** What a request tells the engine about its enrollment. */
export interface EnrollContext {
  requestId: string;
  /**
   * The request's audit row for this outcome: given, it commits in the enrollment's own transaction (both or
   * neither), and the caller writes no other row for the request.
   */
  audit?: (outcome: EnrollOutcome) => AuditFields;
}

/** Enrollment metadata as the API shows it (never the template). */
export type EnrollmentInfo = {
  mobile_number: string;
  model_version: string;
  quality_score: number;
  minutiae_count: number;
  created_at: string;
  updated_at: string;
  reenrollment_required: boolean;
};

/** One 1:N candidate, best first. */
export interface SearchCandidate {
  id: number;
  mobile: string;
  score: number;
  estimatedFmr: number;
}

/** A 1:N search's answer. */
export interface SearchOutcome {
  candidates: SearchCandidate[];
  /** The 1:1 decision threshold in force (a candidate at or above it is a match). */
  threshold: number;
  gallery_size: number;
}

/** Quality and minutiae of an image, computed without enrolling (the console's capture preview). */
export interface FingerprintPreview {
  width: number;
  height: number;
  quality: number;
  minutiae: { x: number; y: number; angle: number; type: string }[];
  /** The not-a-fingerprint check's verdict: score 0-100, decision and reason. */
  likeness?: { score: number; isFingerprint: boolean; reason: string };
}

/** The fingerprint engine: enrollment by mobile number, 1:1 verification, 1:N search, enrollment admin. */
export interface FingerprintEngine {
  /** Model version recorded in each template; a different stored version means re-enrollment. */
  readonly modelVersion: string;
  /**
   * Enroll or replace the template of an E.164 mobile number; throws CoreError NOT_A_FINGERPRINT or QUALITY_TOO_LOW (422) or, when
   * de-duplication rejects, CONFLICT (409).
   */
  enroll(mobileE164: string, image: DecodedImage, context: EnrollContext): Promise<EnrollOutcome>;
  /** 1:1 verification against the number's enrolled template (the fingerprint step of /v2/verify). */
  verify(mobileE164: string, image: DecodedImage): Promise<StepResult>;
  /** 1:N identification: the `k` best enrollments for an image. */
  search(image: DecodedImage, k?: number): Promise<SearchOutcome>;
  /** Enrollment metadata of a number, or undefined. */
  enrollment(mobileE164: string): Promise<EnrollmentInfo | undefined>;
  /** Delete a number's enrollment; false when it was not enrolled. */
  deleteEnrollment(mobileE164: string): Promise<boolean>;
  /** Quality and minutiae of an image without enrolling it. */
  preview(image: DecodedImage): Promise<FingerprintPreview>;
  /** Operating points offered to the console's threshold picker, under the current reader setting. */
  calibration(): Calibration;
  health(): Promise<EngineHealth>;
}
