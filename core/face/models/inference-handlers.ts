/**
 * Worker side of face inference: each worker loads every face model once (sha256- and shape-checked, warmed up)
 * and runs `face.infer` calls. onnxruntime-node's `run` executes synchronously on the calling thread, so the
 * sessions live here and the server's event loop never waits on a model.
 */
import ort from 'onnxruntime-node';
import { loadModel, type LoadModelOptions } from '../../models/registry.js';
import type { HandlerGroup, TaskContext } from '../../workers/handler-types.js';
import { guardOnnxRuntime } from '../../workers/native-section.js';

/** What a face worker loads at start. */
export interface FaceWorkerInit {
  /** Manifest model names. */
  models: string[];
  options: LoadModelOptions;
}

/** One model call: a float tensor (transferred) for the model's single input. */
export interface InferPayload {
  model: string;
  data: Float32Array;
  dims: number[];
}

const sessions = new Map<string, { session: ort.InferenceSession; input: string }>();

async function open(name: string, options: LoadModelOptions): Promise<void> {
  const { entry, session } = await loadModel(name, options);
  const input = Object.keys(entry.inputs)[0];
  const shape = input ? entry.inputs[input] : undefined;
  if (!input || !shape) throw new Error(`Model ${name}: the manifest lists no input.`);
  // Warm-up: the first run initialises kernels; pay it at start, not on the first request.
  await session.run({
    [input]: new ort.Tensor('float32', new Float32Array(shape.reduce((p, d) => p * d, 1)), shape),
  });
  sessions.set(name, { session, input });
}

/** The face task kinds. */
export const faceHandlers = {
  'face.infer': async ({ model, data, dims }: InferPayload, context: TaskContext) => {
    const entry = sessions.get(model);
    if (!entry) throw new Error(`Model ${model} is not loaded in the face workers.`);
    const results = await entry.session.run({ [entry.input]: new ort.Tensor('float32', data, dims) });
    const outputs: Record<string, Float32Array> = {};
    for (const [key, value] of Object.entries(results)) {
      outputs[key] = Float32Array.from(value.data as Float32Array);
      context.transfer(outputs[key].buffer as ArrayBuffer);
    }
    return outputs;
  },
};

/** The face handler group. */
export const faceGroup: HandlerGroup<typeof faceHandlers> = {
  handlers: faceHandlers,
  async init(data) {
    guardOnnxRuntime(ort);
    const { models, options } = data as FaceWorkerInit;
    // Sequential on purpose: a failure names the first broken model.
    for (const name of models) await open(name, options);
  },
  async dispose() {
    for (const { session } of sessions.values()) await session.release();
    sessions.clear();
  },
};
