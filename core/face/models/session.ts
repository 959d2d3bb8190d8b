import type { LoadModelOptions } from '../../models/registry.js';
import { openPooledModel } from './inference-pool.js';

/** One verified ONNX model with a typed single-input call. */
export interface ModelSession {
  /** Run the model on one float tensor (transferred, do not reuse it) and return every output by name. */
  infer(data: Float32Array, dims: readonly number[]): Promise<Record<string, Float32Array>>;
  dispose(): Promise<void>;
}

/**
 * Load a manifest model into the inference worker threads (sha256 and shapes checked by the registry, which throws
 * on any mismatch; warmed up once with a zero tensor). Inference runs off the event loop.
 */
export async function openModel(name: string, options: LoadModelOptions = {}): Promise<ModelSession> {
  return openPooledModel(name, options);
}
