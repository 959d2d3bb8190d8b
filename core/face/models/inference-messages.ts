import type { LoadModelOptions } from '../../models/registry.js';

/** Messages between the main thread and an inference worker (structured-clone safe). */
export type InferenceRequest =
  | { type: 'load'; id: number; handle: number; name: string; options: LoadModelOptions }
  | { type: 'run'; id: number; handle: number; data: Float32Array; dims: number[] }
  | { type: 'dispose'; id: number; handle: number }
  | { type: 'close'; id: number };

/** A worker's answer to one request. */
export type InferenceResponse =
  { id: number; ok: true; outputs?: Record<string, Float32Array> } | { id: number; ok: false; error: string };
