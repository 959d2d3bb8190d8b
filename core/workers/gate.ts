/**
 * Admission for operations made of several worker jobs (a face match is a dozen model calls): at most
 * `concurrency` run at once, the rest wait in a bounded FIFO with the lane's admission rule, so a request is
 * refused before it starts rather than halfway through.
 */
import { jobAdmitted, jobSettled } from './activity.js';
import type { CoreError } from '../errors.js';
import { expectedWaitMs, refusal, ServiceTimes, type AdmissionLimits, type QueuedWork } from './admission.js';
import { withSignal } from './ambient-signal.js';

/** How a gate is built. */
export interface GateOptions extends AdmissionLimits {
  /** Operations running at once (the workers that serve them). */
  concurrency: number;
  /** What clients are told is busy, e.g. "face engine". */
  label: string;
  /** Expected time of each operation kind before one is measured, ms. */
  expectedMs?: Readonly<Record<string, number>>;
  /**
   * Count admitted operations as pool work (activity.ts), for operations that run much of their work between worker
   * jobs, on the main thread (the face engine's image work around its model calls).
   */
  countsAsWork?: boolean;
}

interface Waiter {
  work: QueuedWork;
  start(): void;
}

/** A gate's figures for health reports. */
export interface GateStats {
  running: number;
  queued: number;
  concurrency: number;
  maxQueue: number;
  maxWaitMs: number;
  expectedWaitMs: number;
  meanMs: Record<string, number>;
}

/** A bounded FIFO of async operations with admission by expected wait. */
export class OperationGate {
  readonly #running = new Set<QueuedWork>();
  readonly #waiting: Waiter[] = [];
  readonly #times: ServiceTimes;

  /** @param precheck throws (or returns) the error of a backend that cannot serve at all (e.g. a failed lane). */
  constructor(
    private readonly options: GateOptions,
    private readonly precheck: () => CoreError | null = () => null,
  ) {
    this.#times = new ServiceTimes(options.expectedMs);
  }

  /**
   * Run `operation` when a slot is free; refused at once with OVERLOADED when it could not start in time. The
   * signal drops it while it waits and becomes the default signal of every worker job it starts.
   */
  async run<T>(kind: string, operation: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const leave = await this.enter(kind, signal);
    try {
      const result = await withSignal(signal, operation);
      leave(true);
      return result;
    } finally {
      leave(false);
    }
  }

  /**
   * Take a slot for an operation of `kind` run by the caller (a whole HTTP request); refused at once with OVERLOADED
   * when it could not start in time, dropped when `signal` aborts while it waits. Call the returned function once
   * the operation is over, with true when it completed (its time then counts in the kind's mean); later calls do
   * nothing.
   */
  async enter(kind: string, signal?: AbortSignal): Promise<(completed: boolean) => void> {
    if (signal?.aborted) throw signal.reason as Error;
    const unavailable = this.precheck();
    if (unavailable) throw unavailable;
    const freeNow = this.#running.size < this.options.concurrency && this.#waiting.length === 0;
    const refused = refusal(this.options.label, this.options, {
      queued: this.#waiting.length,
      waitMs: freeNow ? 0 : this.#expectedWait(),
      freeNow,
    });
    if (refused) throw refused;
    const work: QueuedWork = { kind };
    // A waiter is counted as running by `#next` before it resumes, so no newcomer can take its place meanwhile.
    if (freeNow) this.#running.add(work);
    else await this.#wait(work, signal);
    const startedAt = performance.now();
    work.startedAt = startedAt;
    const counted = this.options.countsAsWork ?? false;
    if (counted) jobAdmitted();
    let left = false;
    return (completed: boolean) => {
      if (left) return;
      left = true;
      if (counted) jobSettled();
      if (completed) this.#times.record(kind, performance.now() - startedAt);
      this.#running.delete(work);
      this.#next();
    };
  }

  /** Figures for health reports. */
  stats(): GateStats {
    return {
      running: this.#running.size,
      queued: this.#waiting.length,
      concurrency: this.options.concurrency,
      maxQueue: this.options.maxQueue,
      maxWaitMs: this.options.maxWaitMs,
      expectedWaitMs: Math.round(this.#expectedWait()),
      meanMs: this.#times.snapshot(),
    };
  }

  #expectedWait(): number {
    const waiting = this.#waiting.map((w) => w.work);
    return expectedWaitMs([...this.#running, ...waiting], this.options.concurrency, this.#times);
  }

  #wait(work: QueuedWork, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(signal!.reason as Error);
      };
      const waiter: Waiter = {
        work,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  #next(): void {
    if (this.#running.size >= this.options.concurrency) return;
    const waiter = this.#waiting.shift();
    if (!waiter) return;
    this.#running.add(waiter.work);
    waiter.start();
  }
}
