/** Errors across the thread boundary: a CoreError's code, field, Retry-After and extras survive the trip. */
import { CoreError, isCoreError, isErrorCode } from '../errors.js';

/** An error as posted by a worker. */
export interface SerializedError {
  message: string;
  /** A CoreError's code; absent for any other error. */
  code?: string;
  field?: string;
  retryAfterSeconds?: number;
  extra?: Record<string, unknown>;
}

/** Flatten an error thrown in a worker into a cloneable object. */
export function serializeError(error: unknown): SerializedError {
  const message = error instanceof Error ? error.message : String(error);
  if (!isCoreError(error)) return { message };
  const { field, retryAfterSeconds, extra } = error.details;
  return {
    message,
    code: error.code,
    ...(field !== undefined ? { field } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    ...(extra !== undefined ? { extra } : {}),
  };
}

/** The error to throw on the main thread: the same CoreError, or a plain Error with the worker's message. */
export function reviveError(error: SerializedError): Error {
  if (error.code === undefined || !isErrorCode(error.code)) return new Error(error.message);
  return new CoreError(error.code, error.message, {
    ...(error.field !== undefined ? { field: error.field } : {}),
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    ...(error.extra !== undefined ? { extra: error.extra } : {}),
  });
}
