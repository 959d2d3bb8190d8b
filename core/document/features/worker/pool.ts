/**
 * One lazily started worker thread for the feature checks, so ORB and PDF417 decoding never block the event
 * loop. Under tsx (tests, `npm run serve`) it starts the .ts entry through tsx's loader; built code uses .js.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FeatureTask, FeatureTaskResults } from './tasks.js';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * On Node 20 `execArgv: ['--import', 'tsx']` does not reach a worker's entry module, so under tsx a one-line
 * bootstrap registers tsx's ESM loader in the worker and then imports the .ts entry.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./entry.js', import.meta.url));
  const entry = new URL('./entry.ts', import.meta.url).href;
  const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true });
}

type Reply = { id: number; ok: true; result: unknown; ms: number } | { id: number; ok: false; error: string };

/** A task's result with the time the worker spent computing it (queueing excluded). */
export interface Timed<T> {
  result: T;
  ms: number;
}

/** A single worker thread running feature tasks in order. */
export class FeatureWorker {
  #worker: Worker | null = null;
  #pending = new Map<number, Pending>();
  #nextId = 1;

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = startWorker();
    worker.on('message', (reply: Reply) => {
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      if (reply.ok) pending.resolve({ result: reply.result, ms: reply.ms });
      else pending.reject(new Error(`Feature worker task failed: ${reply.error}`));
      if (this.#pending.size === 0) worker.unref();
    });
    worker.on('error', (error) => {
      this.#failAll(error);
    });
    worker.on('exit', () => {
      this.#worker = null;
      this.#failAll(new Error('Feature worker exited'));
    });
    this.#worker = worker;
    return worker;
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  /** Run a task in the worker. */
  run<K extends FeatureTask['kind']>(
    task: Extract<FeatureTask, { kind: K }>,
  ): Promise<Timed<FeatureTaskResults[K]>> {
    const worker = this.#start();
    const id = this.#nextId++;
    // Keep the process alive only while a task is in flight: an idle worker must not hold the server open.
    worker.ref();
    return new Promise<Timed<FeatureTaskResults[K]>>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, task });
    });
  }

  /** Stop the worker (pending tasks fail). */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
  }
}
