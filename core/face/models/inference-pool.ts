import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LoadModelOptions } from '../../models/registry.js';
import type { InferenceRequest, InferenceResponse } from './inference-messages.js';

type Pending = { resolve: (r: InferenceResponse) => void; reject: (e: Error) => void };
interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/** Start the worker beside this module; under tsx/vitest a bootstrap registers tsx first (as the fingerprint pool). */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./inference-worker.js', import.meta.url));
  const entry = new URL('./inference-worker.ts', import.meta.url).href;
  const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true });
}

/**
 * Worker threads holding every face model's session (each worker loads each model): `infer` goes to the worker with
 * the fewest requests in flight. The pool lives while at least one model is open.
 */
class InferencePool {
  readonly #slots: Slot[];
  #nextId = 1;

  constructor(size: number) {
    this.#slots = Array.from({ length: size }, () => {
      const slot: Slot = { worker: startWorker(), pending: new Map() };
      slot.worker.on('message', (response: InferenceResponse) => {
        const p = slot.pending.get(response.id);
        slot.pending.delete(response.id);
        // An idle worker must not keep the process alive; a busy one must (the caller awaits it).
        if (slot.pending.size === 0) slot.worker.unref();
        p?.resolve(response);
      });
      slot.worker.on('error', (error) => {
        for (const p of slot.pending.values()) p.reject(error);
        slot.pending.clear();
      });
      slot.worker.unref();
      return slot;
    });
  }

  #send(slot: Slot, request: InferenceRequest, transfer: ArrayBuffer[] = []): Promise<InferenceResponse> {
    return new Promise<InferenceResponse>((resolve, reject) => {
      slot.pending.set(request.id, { resolve, reject });
      slot.worker.ref();
      slot.worker.postMessage(request, transfer);
    }).then((r) => {
      if (!r.ok) throw new Error(r.error);
      return r;
    });
  }

  /** Load a model in every worker (rejects with the registry's message on a wrong file or shape). */
  async load(handle: number, name: string, options: LoadModelOptions): Promise<void> {
    // allSettled: a failure in one worker must not let the pool close while another is still creating a session.
    const results = await Promise.allSettled(
      this.#slots.map((s) => this.#send(s, { type: 'load', id: this.#nextId++, handle, name, options })),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
  }

  /** Run a loaded model; `data` is transferred to the worker. */
  async infer(
    handle: number,
    data: Float32Array,
    dims: readonly number[],
  ): Promise<Record<string, Float32Array>> {
    const slot = this.#slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const r = await this.#send(slot, { type: 'run', id: this.#nextId++, handle, data, dims: [...dims] }, [
      data.buffer as ArrayBuffer,
    ]);
    return r.ok && r.outputs ? r.outputs : {};
  }

  async dispose(handle: number): Promise<void> {
    await Promise.all(this.#slots.map((s) => this.#send(s, { type: 'dispose', id: this.#nextId++, handle })));
  }

  /** Ask every worker to release its sessions and exit on its own, and wait for the exits. */
  async close(): Promise<void> {
    await Promise.all(
      this.#slots.map(async (s) => {
        const exited = new Promise<void>((resolve) => {
          s.worker.once('exit', () => {
            resolve();
          });
        });
        await this.#send(s, { type: 'close', id: this.#nextId++ }).catch(() => undefined);
        // Sessions are released by now, so terminate() is safe if the worker's loop does not drain by itself
        // (an unref'd worker that never exits would leave this promise, and a top-level await, hanging).
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => {
            resolve(true);
          }, 2000);
        });
        const timedOut = await Promise.race([exited.then(() => false), late]);
        clearTimeout(timer);
        if (timedOut) await s.worker.terminate();
      }),
    );
  }
}

let pool: InferencePool | undefined;
let open = 0;
let nextHandle = 1;

/** Workers in the pool: two on the 2-core branch PCs (one inference per core), one on a single core. */
export function inferencePoolSize(): number {
  return Math.max(1, Math.min(2, os.availableParallelism()));
}

/** A model loaded in the inference workers. */
export interface PooledModel {
  infer(data: Float32Array, dims: readonly number[]): Promise<Record<string, Float32Array>>;
  dispose(): Promise<void>;
}

/** Load a manifest model into the shared inference workers (started on first use, stopped when the last model closes). */
export async function openPooledModel(name: string, options: LoadModelOptions): Promise<PooledModel> {
  pool ??= new InferencePool(inferencePoolSize());
  const current = pool;
  const handle = nextHandle++;
  open++;
  try {
    await current.load(handle, name, options);
  } catch (error) {
    await release(current);
    throw error;
  }
  let disposed = false;
  return {
    infer: (data, dims) => current.infer(handle, data, dims),
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      await current.dispose(handle);
      await release(current);
    },
  };
}

async function release(current: InferencePool): Promise<void> {
  open--;
  if (open === 0 && pool === current) {
    pool = undefined;
    await current.close();
  }
}
