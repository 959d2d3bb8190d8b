/**
 * Contract of the console API (/api/console/*), shared with the renderer by `import type` only.
 * Self-contained on purpose: the renderer type-checks this file without Node types.
 */

export type ConsoleRole = 'operator' | 'admin' | 'auditor';
export type AuthMode = 'observe' | 'enforce';
export type StepName = 'fingerprint' | 'face_match' | 'id_card_check';

/** Error body of every 4xx/5xx (DESIGN.md). */
export interface ConsoleErrorBody {
  status: 'ERROR';
  code: string;
  message: string;
  field?: string;
}

export interface ConsoleUserView {
  id: string;
  username: string;
  role: ConsoleRole;
  createdAt: string;
  disabled: boolean;
}

export interface SetupStateResponse {
  hasAdmin: boolean;
}

export interface MeResponse {
  user: ConsoleUserView;
  authMode: AuthMode;
  /** Country preselected for mobile numbers (ISO 3166-1 alpha-2), null until an admin chose one. */
  defaultCountry: string | null;
}

/** Which engines this server has built; a false engine's actions answer 501. */
export interface EngineAvailability {
  fingerprint: boolean;
  fingerprintPreview: boolean;
  face: boolean;
  faceQuality: boolean;
  document: boolean;
  orchestrator: boolean;
}

export interface ApiKeyView {
  id: string;
  prefix: string;
  description: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The one response that carries a key's secret. */
export interface CreatedKeyResponse extends ApiKeyView {
  key: string;
}

export interface AuditRowView {
  seq: number;
  time: string;
  requestId: string;
  method: string;
  route: string;
  keyId: string | null;
  authOutcome: string;
  httpStatus: number;
  resultStatus: string | null;
  failedStep: string | null;
  reason: string | null;
  scores: string | null;
  latencyMs: number;
  mobileMasked: string | null;
  event: string | null;
  prevHash: string;
  hash: string;
}

export interface AuditPageResponse {
  rows: AuditRowView[];
  /** Cursor for the next (older) page, null on the last page. */
  nextBefore: number | null;
  /** Who the page's callers are, by key id: an API key's description, a console account's name. */
  callers: Record<string, string>;
}

export interface ChainCheckResponse {
  ok: boolean;
  checked: number;
  firstBrokenSeq: number | null;
  message: string;
}

export interface DailyStatView {
  day: string;
  total: number;
  rejected: number;
  byStep: Record<string, number>;
}

/** A fingerprint's quality and minutiae, computed without enrolling. */
export interface FingerprintPreviewResponse {
  /** Size of the image the minutiae are placed in. */
  width: number;
  height: number;
  quality: number;
  /**
   * How much the image looks like a fingerprint at all, 0-100 (50 and above passes), when the engine reports it;
   * quality says how usable a print is. Shown when present.
   */
  fingerprint_likeness?: number;
  /** Why the image was refused as not a fingerprint (absent when it passes). */
  not_a_fingerprint?: string;
  minutiae: { x: number; y: number; angle: number; type: string }[];
  /** The print as a grey PNG data URL (at most 640 px a side) to draw the minutiae on, whatever the upload's format. */
  image: { url: string; width: number; height: number };
}

/** Face box in image pixels. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One verification step as the console shows it. */
export interface StepOutcome {
  step: StepName;
  status: 'SUCCESS' | 'REJECTED';
  score: number;
  message: string;
  reason?: string;
  threshold?: number;
  /** The threshold's calibrated false-match rate: 1 impostor comparison in `thresholdOneInN` passes it. */
  thresholdOneInN?: number;
  /** How rare this score is among impostors: 1 in `scoreOneInN` impostor comparisons scores this high. */
  scoreOneInN?: number;
  /** Step extras from the engine (face boxes, detected feature and its region, ...). */
  extra?: Record<string, unknown>;
}

/**
 * One line of the console verification's NDJSON stream (POST /api/console/run/verify): each step starting and
 * finishing, then either the result or an error. The result line leaves after the audit row is written.
 */
export type VerifyStreamEvent =
  | { type: 'step'; step: StepName; phase: 'started' }
  | { type: 'step'; step: StepName; phase: 'finished'; outcome: StepOutcome }
  | { type: 'result'; status: 'SUCCESS' | 'REJECTED'; failedStep?: StepName; message: string }
  | { type: 'error'; httpStatus: number; code: string; message: string };

export interface EnrollResponse {
  status: 'SUCCESS';
  message: string;
  mobileMasked: string;
  /** Engine extras (quality, replaced, duplicate warnings). */
  details: Record<string, unknown>;
}

/** Live camera feedback of the face-quality check. */
export interface FaceQualityResponse {
  faceFound: boolean;
  issues: string[];
  message: string;
  details: Record<string, unknown>;
}

/** One selectable operating point of a matcher: the score threshold with its measured false-match rate. */
export interface CalibrationPoint {
  oneInN: number;
  threshold: number;
}

export interface ThresholdSetting {
  engine: 'face' | 'fingerprint';
  available: boolean;
  /** The 1-in-N the engine decides with now: an admin's choice, else the engine's default. */
  oneInN: number;
  /** True while no admin has chosen: `oneInN` is the engine's default. */
  isDefault: boolean;
  /** Score threshold of `oneInN` in the calibration in force; null when it is not one of the calibrated points. */
  threshold: number | null;
  calibration: CalibrationPoint[];
  /** Where the calibration came from (dataset and date), shown beside the picker. */
  calibrationSource: string;
}

/**
 * The fingerprint engine's enrollment policy and reader (settings `fingerprint.turn`, `fingerprint.dedup`,
 * `fingerprint.qualityFloor`, `fingerprint.minMinutiae`).
 */
export interface FingerprintPolicySetting {
  available: boolean;
  /** 'upright': the reader is fixed in place; 'any': it may face any way. Each has its own calibration. */
  turn: 'upright' | 'any';
  /** A finger already enrolled under another number: flagged in the response, or the enrollment refused (409). */
  dedup: 'flag' | 'reject';
  /** Enrollment refuses prints below this quality (0-100) or with fewer minutiae (422). */
  qualityFloor: number;
  minMinutiae: number;
}

export interface ServerBindSetting {
  host: string;
  port: number;
  /** True when the stored value differs from what this process is bound to (applied on restart). */
  pendingRestart: boolean;
  current: { host: string; port: number };
}

/** Console-wide preferences an admin sets. */
export interface ConsolePreferences {
  /** Country preselected for mobile numbers (ISO 3166-1 alpha-2), null until chosen. */
  defaultCountry: string | null;
}

export interface ConsoleSettingsResponse {
  thresholds: ThresholdSetting[];
  console: ConsolePreferences;
  fingerprint: FingerprintPolicySetting;
  server: ServerBindSetting;
  orchestrator: { available: boolean; config: Record<string, unknown> | null };
  documents: { available: boolean; profiles: DocumentProfileView[]; referenceMarks: ReferenceMarkView[] };
}

/** A card type's required security features (any one suffices) and the marks it looks for. */
export interface DocumentProfileView {
  name: string;
  description: string;
  features: { feature: string; min_score: number }[];
  /** Reference-mark names to look for; empty means every registered mark. */
  reference_marks: string[];
  built_in: boolean;
  updated_at: string;
}

/** A registered printed mark (issuer emblem) the reference-mark detector looks for. */
export interface ReferenceMarkView {
  id: string;
  name: string;
  width: number;
  height: number;
  keypoints: number;
  created_at: string;
}
