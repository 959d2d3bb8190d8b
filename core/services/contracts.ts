import type { DecodedImage } from '../imaging/decode.js';

/**
 * Engine contracts the HTTP layer and the /v2/verify pipeline code against. Each engine issue implements
 * one; an engine that is not built is `undefined` in `Services` and its routes answer 501 NOT_IMPLEMENTED.
 */

/** Outcome of one check, shaped as SPEC 2.3's per-step object plus product extras. */
export interface StepResult {
  status: 'SUCCESS' | 'REJECTED';
  score: number;
  message: string;
  /** Machine-readable reason on rejection (DESIGN.md): no_match, not_enrolled, reenrollment_required, ... */
  reason?: string;
  /** Step-specific extra fields (threshold, estimated_fmr, face boxes, region, ...). */
  extra?: Record<string, unknown>;
}

/** Fingerprint engine (issue 3). */
export interface FingerprintEngine {
  /** Model version recorded in each template; a different stored version means re-enrollment. */
  readonly modelVersion: string;
  /** Enroll or replace the template of an E.164 mobile number; throws CoreError QUALITY_TOO_LOW (422). */
  enroll(
    mobileE164: string,
    image: DecodedImage,
    context: { requestId: string },
  ): Promise<Record<string, unknown>>;
  /** 1:1 verification against the number's enrolled template (the fingerprint step of /v2/verify). */
  verify(mobileE164: string, image: DecodedImage): Promise<StepResult>;
  health(): Record<string, unknown>;
}

/** Face engine (issue 4). */
export interface FaceEngine {
  /** Selfie vs ID-card portrait (the face_match step of /v2/verify and /v2/match-faces). */
  match(selfie: DecodedImage, idCard: DecodedImage, options?: { threshold?: number }): Promise<StepResult>;
  /** Passive liveness of one face image; score in [0,1], 1 = bona fide. */
  liveness(image: DecodedImage): Promise<StepResult>;
  health(): Record<string, unknown>;
}

/** ID-document engine (issue 5). */
export interface DocumentEngine {
  /** Required security feature of the card (the id_card step of /v2/verify and /v1/verify). */
  checkIdCard(image: DecodedImage, options?: { profile?: string }): Promise<StepResult>;
  health(): Record<string, unknown>;
}
