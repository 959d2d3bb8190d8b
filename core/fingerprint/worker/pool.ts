import { CoreError } from '../../errors.js';
import { WorkerLane, fingerprintLane, workersHealth, type LaneStats } from '../../workers/index.js';
import type { LaneTuning } from '../../workers/sizing.js';
import type { FingerprintFeatures } from '../types.js';
import { runExtraction } from './extract-job.js';
import type { ExtractInput, fingerprintHandlers } from './handlers.js';

export type { ExtractInput } from './handlers.js';

/** Pool settings; every field is optional (defaults: core/workers/sizing.ts). */
export interface ExtractionPoolOptions extends LaneTuning {
  /** Worker threads; 0 runs extraction on the calling thread (CLI, benchmarks). */
  size?: number;
}

/**
 * Minutiae extraction on the fingerprint lane of the worker pool, so the HTTP server stays responsive: a full
 * queue or a long expected wait answers OVERLOADED (503 + Retry-After) at once; a crashed worker is replaced.
 */
export class ExtractionPool {
  readonly #lane: WorkerLane<typeof fingerprintHandlers> | undefined;
  #closed = false;

  constructor(options: ExtractionPoolOptions = {}) {
    const size = Math.max(0, Math.floor(options.size ?? fingerprintLane().size));
    this.#lane =
      size === 0
        ? undefined
        : new WorkerLane({
            ...fingerprintLane(),
            ...options,
            size,
            name: 'fingerprint',
            label: 'fingerprint extraction',
            groups: ['fingerprint'],
          });
  }

  /** Figures for health reports (an in-thread pool reports size 0). */
  stats(): LaneStats | { size: 0 } {
    return this.#lane?.stats() ?? { size: 0 };
  }

  /** Lanes of this pool, for `workersHealth`. */
  health(): ReturnType<typeof workersHealth> {
    return workersHealth(this.#lane ? [this.#lane] : []);
  }

  /** Extract features from an RGB image on a worker; the pixels are copied, the caller's buffer is untouched. */
  async extract(input: ExtractInput, signal?: AbortSignal): Promise<FingerprintFeatures> {
    if (this.#closed)
      throw new CoreError('ENGINE_UNAVAILABLE', 'Fingerprint extraction is shut down.', {
        retryAfterSeconds: 5,
      });
    if (!this.#lane) return runExtraction(input.rgb, input.width, input.height, input.dpi);
    const job: ExtractInput = { width: input.width, height: input.height, rgb: input.rgb };
    if (input.dpi !== undefined) job.dpi = input.dpi;
    // A copy of exactly the pixels when a worker takes the job, handed over without another copy.
    const prepare = (): ArrayBuffer[] => {
      const rgb = Uint8Array.from(input.rgb);
      job.rgb = rgb;
      return [rgb.buffer];
    };
    return this.#lane.run('fingerprint.extract', job, { prepare, ...(signal ? { signal } : {}) });
  }

  /** Stop every worker; queued and running jobs fail. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#lane?.close();
  }
}

/** Default pool size: leave one core to the event loop, never more than two workers. */
export function defaultPoolSize(): number {
  return fingerprintLane().size;
}
