import type { FingerprintFeatures } from '../types.js';

/** Main thread → worker: one extraction job. `rgb` is transferred, never copied back. */
export interface ExtractRequest {
  id: number;
  width: number;
  height: number;
  rgb: Uint8Array;
  dpi?: number;
}

/** Worker → main thread: features or a serialised error. */
export type ExtractResponse =
  | { id: number; ok: true; features: FingerprintFeatures }
  | { id: number; ok: false; error: { code?: string; message: string; extra?: Record<string, unknown> } };
