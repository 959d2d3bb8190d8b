/**
 * Admission by expected wait: a job is refused at once (503 OVERLOADED with Retry-After) when the queue is full or
 * when the work ahead of it would keep it waiting longer than the configured maximum, so accepted work keeps a
 * bounded latency and a client can retry elsewhere instead of queueing behind everyone.
 */
import { CoreError } from '../errors.js';

/** Bounds of a queue. */
export interface AdmissionLimits {
  /** Jobs allowed to wait for a free worker (or slot); one more is refused. */
  maxQueue: number;
  /** Refuse a job expected to wait longer than this before it starts, ms; Infinity turns the check off. */
  maxWaitMs: number;
}

/** Weight of the newest sample in the running mean of a kind's service time. */
const SMOOTHING = 0.2;

/** Recent mean service time per task kind (exponentially weighted), seeded by optional estimates. */
export class ServiceTimes {
  readonly #means = new Map<string, number>();

  constructor(private readonly seeds: Readonly<Record<string, number>> = {}) {}

  /** Record one completed job. */
  record(kind: string, ms: number): void {
    const mean = this.#means.get(kind);
    this.#means.set(kind, mean === undefined ? ms : mean + SMOOTHING * (ms - mean));
  }

  /** The mean service time of a kind, ms: measured, else the seed, else 0 (unknown work is not counted). */
  mean(kind: string): number {
    return this.#means.get(kind) ?? this.seeds[kind] ?? 0;
  }

  /** Measured means, rounded, for health reports. */
  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.#means].map(([kind, ms]) => [kind, Math.round(ms)]));
  }
}

/** Work in a queue as admission sees it. */
export interface QueuedWork {
  kind: string;
  /** performance.now() when it started running; undefined while it waits. */
  startedAt?: number;
}

/**
 * Expected wait of a new job, ms: the remaining work of the running jobs (mean minus elapsed, at least 0) plus the
 * mean of each waiting job, shared by `servers` workers.
 */
export function expectedWaitMs(
  work: Iterable<QueuedWork>,
  servers: number,
  times: ServiceTimes,
  now = performance.now(),
): number {
  let total = 0;
  for (const item of work) {
    const mean = times.mean(item.kind);
    total += item.startedAt === undefined ? mean : Math.max(0, mean - (now - item.startedAt));
  }
  return total / Math.max(1, servers);
}

/** Retry-After for a refusal: the expected wait rounded up to whole seconds, at least 1, at most 60. */
export function retryAfterFor(waitMs: number): number {
  return Math.min(60, Math.max(1, Math.ceil(waitMs / 1000)));
}

/**
 * The refusal of a job that cannot wait, or null when it is admitted: `queued` jobs already wait, `waitMs` is the
 * expected wait and `freeNow` says a worker (or slot) could take it at once.
 */
export function refusal(
  label: string,
  limits: AdmissionLimits,
  state: { queued: number; waitMs: number; freeNow: boolean },
): CoreError | null {
  if (state.freeNow) return null;
  const retryAfterSeconds = retryAfterFor(state.waitMs);
  if (state.queued >= limits.maxQueue) {
    return new CoreError('OVERLOADED', `The ${label} is busy (queue full); retry shortly.`, {
      retryAfterSeconds,
    });
  }
  if (state.waitMs > limits.maxWaitMs) {
    return new CoreError(
      'OVERLOADED',
      `The ${label} is busy (about ${retryAfterSeconds} s of work queued); retry shortly.`,
      { retryAfterSeconds },
    );
  }
  return null;
}
