/** Machine-readable error codes, each mapped to one HTTP status in `httpStatusOf`. */
export type ErrorCode =
  | 'FIELD_MISSING'
  | 'FIELD_INVALID'
  | 'MOBILE_NUMBER_INVALID'
  | 'BODY_INVALID'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'FILE_TOO_LARGE'
  | 'IMAGE_UNSUPPORTED'
  | 'IMAGE_TRUNCATED'
  | 'IMAGE_TOO_MANY_PIXELS'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'QUALITY_TOO_LOW'
  | 'NOT_A_FINGERPRINT'
  | 'UNPROCESSABLE'
  | 'RATE_LIMITED'
  | 'OVERLOADED'
  | 'ENGINE_UNAVAILABLE'
  | 'STORE_UNAVAILABLE'
  | 'NOT_IMPLEMENTED'
  | 'INTERNAL';

const STATUS: Record<ErrorCode, number> = {
  FIELD_MISSING: 400,
  FIELD_INVALID: 400,
  MOBILE_NUMBER_INVALID: 400,
  BODY_INVALID: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  FILE_TOO_LARGE: 413,
  IMAGE_UNSUPPORTED: 415,
  IMAGE_TRUNCATED: 415,
  IMAGE_TOO_MANY_PIXELS: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  QUALITY_TOO_LOW: 422,
  NOT_A_FINGERPRINT: 422,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  OVERLOADED: 503,
  // A worker died, hung or cannot start: the request was not served, a retry may be (always with Retry-After).
  ENGINE_UNAVAILABLE: 503,
  // The store does not answer, is locked past its busy timeout or its disk is full: nothing was written, a retry after it returns may succeed (Retry-After).
  STORE_UNAVAILABLE: 503,
  NOT_IMPLEMENTED: 501,
  INTERNAL: 500,
};

/** True when `code` is one of the error codes (e.g. a code that crossed a thread boundary as a string). */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(STATUS, code);
}

/** HTTP status for an error code: the one place codes map to statuses. */
export function httpStatusOf(code: ErrorCode): number {
  return STATUS[code];
}

/** Extra, safe-to-show details of an error (never raw input). */
export interface CoreErrorDetails {
  /** The request field the error is about. */
  field?: string;
  /** Seconds the client should wait before retrying (429, 503). */
  retryAfterSeconds?: number;
  /** Additional machine-readable properties merged into the error body (e.g. a quality score). */
  extra?: Record<string, unknown>;
}

/** The one error type of core: a code, a human message, optional details. */
export class CoreError extends Error {
  readonly code: ErrorCode;
  readonly details: CoreErrorDetails;

  constructor(code: ErrorCode, message: string, details: CoreErrorDetails = {}) {
    super(message);
    this.name = 'CoreError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return httpStatusOf(this.code);
  }
}

/** True for a CoreError (also across module copies). */
export function isCoreError(error: unknown): error is CoreError {
  return error instanceof CoreError;
}
