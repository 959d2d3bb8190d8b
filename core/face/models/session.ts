import ort from 'onnxruntime-node';
import { loadModel, type LoadModelOptions } from '../../models/registry.js';

/** One verified ONNX session with a typed single-input call. */
export interface ModelSession {
  /** Run the model on one float tensor and return every output's data by name. */
  infer(data: Float32Array, dims: readonly number[]): Promise<Record<string, Float32Array>>;
  dispose(): Promise<void>;
}

/**
 * Load a manifest model (sha256 and shapes checked by the registry, which throws on any mismatch) and warm it up
 * once with a zero tensor, so the first request does not pay for lazy kernel initialisation.
 */
export async function openModel(name: string, options: LoadModelOptions = {}): Promise<ModelSession> {
  const { entry, session } = await loadModel(name, options);
  const inputName = Object.keys(entry.inputs)[0];
  const inputShape = inputName ? entry.inputs[inputName] : undefined;
  if (!inputName || !inputShape) throw new Error(`Model ${name}: the manifest lists no input.`);
  const infer = async (data: Float32Array, dims: readonly number[]): Promise<Record<string, Float32Array>> => {
    const results = await session.run({ [inputName]: new ort.Tensor('float32', data, dims) });
    const out: Record<string, Float32Array> = {};
    for (const [key, value] of Object.entries(results)) out[key] = value.data as Float32Array;
    return out;
  };
  const size = inputShape.reduce((p, d) => p * d, 1);
  await infer(new Float32Array(size), inputShape);
  return { infer, dispose: () => session.release() };
}
