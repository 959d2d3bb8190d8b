import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CoreError, type ErrorCode } from '../../errors.js';
import type { FingerprintFeatures } from '../types.js';
import { runExtraction } from './extract-job.js';
import type { ExtractRequest, ExtractResponse } from './messages.js';

/** Pool sizing; every field is optional. */
export interface ExtractionPoolOptions {
  /** Worker threads; 0 runs extraction on the calling thread (CLI, benchmarks). Default min(2, cores - 1), at least 1. */
  size?: number;
  /** Jobs allowed to wait for a free worker before new ones are refused with OVERLOADED. Default 16. */
  maxQueue?: number;
  /** Retry-After sent with OVERLOADED, seconds. Default 2. */
  retryAfterSeconds?: number;
}

/** An image to extract: interleaved RGB as decoded from an upload. */
export interface ExtractInput {
  width: number;
  height: number;
  rgb: Uint8Array;
  dpi?: number;
}

interface Job {
  request: ExtractRequest;
  resolve: (features: FingerprintFeatures) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

/** Default pool size: leave one core to the event loop, never more than two workers. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(2, os.availableParallelism() - 1));
}

/**
 * Start the worker script beside this module. Under tsx or vitest that is the .ts source: `execArgv: ['--import',
 * 'tsx']` does not reach a worker's entry module on Node 20, so a one-line bootstrap registers tsx's loader in
 * the worker first and then imports the entry.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./extract-worker.js', import.meta.url));
  const entry = new URL('./extract-worker.ts', import.meta.url).href;
  // The ESM build of tsx's API (its CommonJS build cannot be loaded from an eval worker).
  const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true });
}

/**
 * Runs minutiae extraction on worker threads so the HTTP server stays responsive. A bounded queue sheds load:
 * when it is full, `extract` fails at once with CoreError OVERLOADED (503 + Retry-After) instead of piling up.
 */
export class ExtractionPool {
  private readonly size: number;
  private readonly maxQueue: number;
  private readonly retryAfterSeconds: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: ExtractionPoolOptions = {}) {
    this.size = Math.max(0, Math.floor(options.size ?? defaultPoolSize()));
    this.maxQueue = Math.max(0, options.maxQueue ?? 16);
    this.retryAfterSeconds = options.retryAfterSeconds ?? 2;
  }

  /** Figures for health reports. */
  stats(): { size: number; busy: number; queued: number; maxQueue: number } {
    return {
      size: this.size,
      busy: this.slots.filter((s) => s.job).length,
      queued: this.queue.length,
      maxQueue: this.maxQueue,
    };
  }

  /** Extract features from an RGB image on a worker; the pixels are copied, the caller's buffer is untouched. */
  extract(input: ExtractInput): Promise<FingerprintFeatures> {
    if (this.closed)
      return Promise.reject(new CoreError('OVERLOADED', 'The fingerprint extraction pool is shut down.'));
    if (this.size === 0) {
      try {
        return Promise.resolve(runExtraction(input.rgb, input.width, input.height, input.dpi));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    const idle = this.slots.find((s) => !s.job);
    const canSpawn = this.slots.length < this.size;
    if (!idle && !canSpawn && this.queue.length >= this.maxQueue) {
      return Promise.reject(
        new CoreError('OVERLOADED', 'Fingerprint extraction is busy; retry shortly.', {
          retryAfterSeconds: this.retryAfterSeconds,
        }),
      );
    }
    return new Promise<FingerprintFeatures>((resolve, reject) => {
      const request: ExtractRequest = {
        id: this.nextId++,
        width: input.width,
        height: input.height,
        rgb: Uint8Array.from(input.rgb),
      };
      if (input.dpi !== undefined) request.dpi = input.dpi;
      this.queue.push({ request, resolve, reject });
      this.pump();
    });
  }

  /** Stop every worker; queued and running jobs fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.reject(new CoreError('OVERLOADED', 'The fingerprint extraction pool shut down.'));
    await Promise.all(
      this.slots.splice(0).map(async (slot) => {
        slot.job?.reject(new CoreError('OVERLOADED', 'The fingerprint extraction pool shut down.'));
        await slot.worker.terminate();
      }),
    );
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      // The copy made in `extract` is ours to hand over without another copy.
      slot.worker.postMessage(job.request, [job.request.rgb.buffer as ArrayBuffer]);
    }
  }

  private spawn(): Slot {
    const worker = startWorker();
    const slot: Slot = { worker, job: null };
    worker.on('message', (response: ExtractResponse) => {
      const job = slot.job;
      slot.job = null;
      if (job && job.request.id === response.id) {
        if (response.ok) job.resolve(response.features);
        else job.reject(toError(response.error));
      }
      this.pump();
    });
    const fail = (error: Error): void => {
      // A crashed worker is replaced; only its own job fails.
      const job = slot.job;
      slot.job = null;
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      job?.reject(new CoreError('INTERNAL', `Fingerprint extraction failed: ${error.message}`));
      if (!this.closed) this.pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.slots.includes(slot)) fail(new Error(`worker exited with code ${code}`));
    });
    this.slots.push(slot);
    return slot;
  }
}

const KNOWN_CODES = new Set<string>([
  'QUALITY_TOO_LOW',
  'UNPROCESSABLE',
  'IMAGE_UNSUPPORTED',
  'FIELD_INVALID',
]);

function toError(error: { code?: string; message: string; extra?: Record<string, unknown> }): Error {
  if (error.code && KNOWN_CODES.has(error.code)) {
    return new CoreError(error.code as ErrorCode, error.message, error.extra ? { extra: error.extra } : {});
  }
  return new CoreError('INTERNAL', `Fingerprint extraction failed: ${error.message}`);
}
