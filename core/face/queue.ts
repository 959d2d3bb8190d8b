import { CoreError } from '../errors.js';

/** Bounds of the inference queue. */
export interface QueueOptions {
  /** Jobs running at once (ONNX runs on its own threads; 2 matches a 2-core branch PC). */
  concurrency: number;
  /** Jobs allowed to wait; one more is refused with 503 OVERLOADED. */
  maxPending: number;
  /** Retry-After hint given with the 503. */
  retryAfterSeconds: number;
}

/**
 * A bounded FIFO of async jobs: at most `concurrency` run, at most `maxPending` wait, and the next caller gets
 * CoreError OVERLOADED at once instead of piling latency onto everyone.
 */
export class BoundedQueue {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly options: QueueOptions) {}

  /** Jobs running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  /** Run `job` when a slot is free; rejects with OVERLOADED when the wait list is full. */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.#running >= this.options.concurrency) {
      if (this.#waiting.length >= this.options.maxPending) {
        throw new CoreError('OVERLOADED', 'The face engine is busy; retry shortly.', {
          retryAfterSeconds: this.options.retryAfterSeconds,
        });
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return await job();
    } finally {
      const next = this.#waiting.shift();
      // Hand the slot straight to the next waiter so `running` never dips and lets a newcomer jump the queue.
      if (next) next();
      else this.#running--;
    }
  }
}
