import type { EnrollmentChange, EnrollmentRepository } from '../contracts/enrollment-repository.js';

/** How often the feed is read when no notice came (notices can be lost while the connection is down). */
export const FOLLOW_POLL_MS = 1000;
/** Changes read per page. */
const PAGE = 500;

/**
 * Follows the enrollment change feed of a shared store by sequence: wakes on the store's change notices, reads
 * the feed at least every FOLLOW_POLL_MS in case notices were lost (a reconnect), and hands each page of changes
 * to `apply` in order. `catchUp()` lets a search first take in everything committed before it.
 */
export class IndexFollower {
  private cursor = 0;
  private started = false;
  private timer: NodeJS.Timeout | undefined;
  private unwatch: (() => void) | undefined;
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  /** The last failure to read the feed (the database away), cleared by the next success. */
  error: string | undefined;

  constructor(
    private readonly store: EnrollmentRepository,
    private readonly apply: (changes: EnrollmentChange[]) => Promise<void>,
    private readonly pollMs = FOLLOW_POLL_MS,
  ) {}

  /** Start following after sequence `from` (where a full load began). */
  start(from: number): void {
    if (this.started) return;
    this.started = true;
    this.cursor = from;
    this.unwatch = this.store.watch(() => {
      void this.catchUp().catch(() => undefined);
    });
    this.timer = setInterval(() => {
      void this.catchUp().catch(() => undefined);
    }, this.pollMs);
    this.timer.unref();
    void this.catchUp().catch(() => undefined);
  }

  /** Sequence of the last change applied. */
  get position(): number {
    return this.cursor;
  }

  /**
   * Apply every change committed before this call (nothing when not started). Calls made while a read runs share
   * the next one, so a burst of searches costs one feed read.
   */
  catchUp(): Promise<void> {
    if (!this.started) return Promise.resolve();
    if (!this.queued) {
      const next = this.running
        .catch(() => undefined)
        .then(() => {
          this.queued = undefined;
          return this.read();
        });
      this.queued = next;
      this.running = next;
    }
    return this.queued;
  }

  /** Stop following. */
  stop(): void {
    this.started = false;
    clearInterval(this.timer);
    this.unwatch?.();
  }

  private async read(): Promise<void> {
    try {
      for (;;) {
        const changes = await this.store.changesAfter(this.cursor, PAGE);
        if (changes.length > 0) {
          await this.apply(changes);
          this.cursor = changes.at(-1)!.seq;
        }
        if (changes.length < PAGE) break;
      }
      this.error = undefined;
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
      throw error;
    }
  }
}
