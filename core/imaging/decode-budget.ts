/**
 * A budget of decoded pixels (bytes) shared by every request: an image is decoded only once its bytes fit, so the
 * memory held by uploads is a configured figure, not a function of what clients send. A request over budget waits
 * its turn (first come, first served) for a short while, then is refused with 503 and Retry-After.
 */
import { CoreError } from '../errors.js';

/** How a budget is built. */
export interface DecodeBudgetOptions {
  /** Decoded bytes all requests may hold at once. */
  bytes: number;
  /** Longest wait for room before a request is refused (503), ms. */
  maxWaitMs: number;
}

/** A budget's figures for health reports. */
export interface DecodeBudgetStats {
  bytes: number;
  used: number;
  /** Highest `used` since the start. */
  peak: number;
  waiting: number;
  /** Reservations refused after waiting. */
  refused: number;
}

interface Waiter {
  bytes: number;
  grant(): void;
}

/** Decoded bytes shared by all requests. */
export class DecodeBudget {
  readonly #options: DecodeBudgetOptions;
  readonly #waiting: Waiter[] = [];
  #used = 0;
  #peak = 0;
  #refused = 0;

  constructor(options: DecodeBudgetOptions) {
    this.#options = options;
  }

  /** A lease for one request: what it reserves is returned together by `release`. */
  lease(): DecodeLease {
    return new DecodeLease(this);
  }

  /** Figures for health reports. */
  stats(): DecodeBudgetStats {
    return {
      bytes: this.#options.bytes,
      used: this.#used,
      peak: this.#peak,
      waiting: this.#waiting.length,
      refused: this.#refused,
    };
  }

  /** Take `bytes`, waiting in line for room; refused with OVERLOADED after the longest wait. */
  take(bytes: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.#waiting.length === 0 && this.#fits(bytes)) {
      this.#grant(bytes);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const leave = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
      };
      const onAbort = (): void => {
        leave();
        reject(signal!.reason as Error);
        this.#next();
      };
      const timer = setTimeout(() => {
        leave();
        this.#refused++;
        reject(
          new CoreError(
            'OVERLOADED',
            'The server is decoding as many images as its memory allows; retry shortly.',
            {
              retryAfterSeconds: Math.max(1, Math.ceil(this.#options.maxWaitMs / 1000)),
            },
          ),
        );
        this.#next();
      }, this.#options.maxWaitMs);
      const waiter: Waiter = {
        bytes,
        grant: () => {
          leave();
          this.#grant(bytes);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  /** Return bytes taken earlier and let waiters in. */
  give(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
    this.#next();
  }

  /** Room for `bytes`; one reservation larger than the whole budget runs alone rather than never. */
  #fits(bytes: number): boolean {
    return this.#used + bytes <= this.#options.bytes || this.#used === 0;
  }

  #grant(bytes: number): void {
    this.#used += bytes;
    this.#peak = Math.max(this.#peak, this.#used);
  }

  #next(): void {
    while (this.#waiting.length > 0 && this.#fits(this.#waiting[0]!.bytes)) this.#waiting[0]!.grant();
  }
}

/** What one request holds of the budget; `release` returns all of it, once. */
export class DecodeLease {
  #held = 0;
  #released = false;

  constructor(private readonly budget: DecodeBudget) {}

  /** Bytes held. */
  get held(): number {
    return this.#held;
  }

  /** Reserve `bytes` more for this request (waits for room; 503 after the budget's longest wait). */
  async reserve(bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.#released) throw new Error('DecodeLease used after release');
    await this.budget.take(bytes, signal);
    if (this.#released) {
      this.budget.give(bytes);
      return;
    }
    this.#held += bytes;
  }

  /** Return everything this request reserved. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.budget.give(this.#held);
    this.#held = 0;
  }
}
