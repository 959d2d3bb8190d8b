import type { LoadModelOptions } from '../../models/registry.js';
import { FaceInference, type ModelSession } from './inference-lane.js';

export type { ModelSession } from './inference-lane.js';

/** How to open a model: registry options, and the face workers to run it on. */
export interface OpenModelOptions extends LoadModelOptions {
  /** Face workers that loaded the model (the engine's); without it the model gets a worker of its own. */
  inference?: FaceInference;
}

/**
 * A manifest model in the face workers (sha256 and shapes checked by the registry, which throws on any mismatch;
 * warmed up once with a zero tensor). Inference runs off the event loop.
 */
export async function openModel(name: string, options: OpenModelOptions = {}): Promise<ModelSession> {
  const { inference, ...load } = options;
  if (inference) return inference.session(name);
  const own = await FaceInference.open([name], load, { size: 1 });
  const session = own.session(name);
  return { infer: (data, dims) => session.infer(data, dims), dispose: () => own.close() };
}
