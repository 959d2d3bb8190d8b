import { parentPort } from 'node:worker_threads';
import ort from 'onnxruntime-node';
import { loadModel } from '../../models/registry.js';
import type { InferenceRequest, InferenceResponse } from './inference-messages.js';

/**
 * Inference worker: onnxruntime-node's `run` executes synchronously on the calling thread (1.30 only defers it with
 * setImmediate), so the sessions live here and the server's event loop never waits on a model.
 */
const sessions = new Map<number, { session: ort.InferenceSession; input: string }>();

async function handle(request: InferenceRequest): Promise<InferenceResponse> {
  switch (request.type) {
    case 'load': {
      const { entry, session } = await loadModel(request.name, request.options);
      const input = Object.keys(entry.inputs)[0];
      const shape = input ? entry.inputs[input] : undefined;
      if (!input || !shape) throw new Error(`Model ${request.name}: the manifest lists no input.`);
      // Warm-up: the first run initialises kernels; pay it at start, not on the first request.
      await session.run({
        [input]: new ort.Tensor('float32', new Float32Array(shape.reduce((p, d) => p * d, 1)), shape),
      });
      sessions.set(request.handle, { session, input });
      return { id: request.id, ok: true };
    }
    case 'run': {
      const entry = sessions.get(request.handle);
      if (!entry) throw new Error('The model is not loaded in this worker.');
      const results = await entry.session.run({
        [entry.input]: new ort.Tensor('float32', request.data, request.dims),
      });
      const outputs: Record<string, Float32Array> = {};
      for (const [key, value] of Object.entries(results))
        outputs[key] = Float32Array.from(value.data as Float32Array);
      return { id: request.id, ok: true, outputs };
    }
    case 'dispose': {
      await sessions.get(request.handle)?.session.release();
      sessions.delete(request.handle);
      return { id: request.id, ok: true };
    }
    case 'close': {
      // Leave by emptying the event loop: terminate() mid-native-call aborts the process (Napi::Error).
      for (const { session } of sessions.values()) await session.release();
      sessions.clear();
      setImmediate(() => parentPort?.close());
      return { id: request.id, ok: true };
    }
  }
}

parentPort?.on('message', (request: InferenceRequest) => {
  handle(request).then(
    (response) => {
      const transfer =
        response.ok && response.outputs
          ? Object.values(response.outputs).map((o) => o.buffer as ArrayBuffer)
          : [];
      parentPort?.postMessage(response, transfer);
    },
    (error: unknown) => {
      parentPort?.postMessage({
        id: request.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      });
    },
  );
});
