import { backoffDelay, type BackoffPolicy } from './backoff.js';
import type { EventPublisher } from './jetstream-publisher.js';
import type { OutboxRepository, OutboxRow } from '../../contracts/outbox-repository.js';

/** Relay tuning. */
export interface RelayOptions {
  /** Rows read and published (pipelined) per round. */
  batchSize?: number;
  /** Backoff while the broker is unreachable. */
  backoff?: BackoffPolicy;
  /** Milliseconds between idle checks for rows nobody nudged about (e.g. written by an earlier process). */
  idlePollMs?: number;
  /**
   * How long a claimed batch stays this relay's (another relay on the same store skips it meanwhile); rows of a relay
   * that died mid-publish are sent by another, or after a restart, once it runs out.
   */
  leaseMs?: number;
  /** Called after rows were acknowledged by the broker, with the acknowledgement time (ms, performance clock). */
  onPublished?: (rows: readonly OutboxRow[], ackedAtMs: number) => void;
  /** Warning sink (pino-like); never given payloads. */
  warn?: (message: string) => void;
}

/** Counters for health and the bench. */
export interface RelayStats {
  state: 'stopped' | 'connecting' | 'idle' | 'publishing' | 'backing-off';
  published: number;
  duplicates: number;
  consecutiveFailures: number;
  /** The error of the current outage; null once the broker answers again. */
  lastError: string | null;
  lastPublishedAt: string | null;
}

const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 250, multiplier: 2, maxMs: 15_000 };
const DEFAULT_LEASE_MS = 30_000;

/**
 * Moves outbox rows to the broker: on start it relays every unpublished row, then wakes on `nudge()` (after each
 * commit) or on an idle poll. While the broker is down it backs off exponentially and resumes on reconnect.
 * At-least-once: a row is marked only after the broker's ack, so a crash in between re-sends it with the same
 * msgID (event id), which JetStream de-duplicates within its window and consumers de-duplicate after.
 */
export class OutboxRelay {
  private running: Promise<void> | undefined;
  private stopped = true;
  private wake: (() => void) | undefined;
  private pendingNudge = false;
  private readonly current: RelayStats = {
    state: 'stopped',
    published: 0,
    duplicates: 0,
    consecutiveFailures: 0,
    lastError: null,
    lastPublishedAt: null,
  };

  constructor(
    private readonly store: OutboxRepository,
    private readonly publisher: EventPublisher,
    private readonly options: RelayOptions = {},
  ) {
    publisher.onReconnect(() => {
      this.wake?.();
    });
  }

  /** Begin relaying (idempotent). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.running = this.loop();
  }

  /** Tell the relay a row was committed; ignored while backing off so a down broker is not hammered. */
  nudge(): void {
    this.pendingNudge = true;
    if (this.current.state === 'idle') this.wake?.();
  }

  /** Stop after the current round; unacknowledged rows stay in the outbox for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
    this.running = undefined;
    this.current.state = 'stopped';
  }

  stats(): RelayStats {
    return { ...this.current };
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.pendingNudge = false;
      try {
        // Connect even with nothing to send, so health tells the truth and the first event goes out at once.
        if (!this.publisher.isConnected()) {
          this.current.state = 'connecting';
          await this.untilStopped(this.publisher.ready());
        }
        const rows = await this.store.claim(
          this.options.batchSize ?? 100,
          this.options.leaseMs ?? DEFAULT_LEASE_MS,
        );
        if (rows.length === 0) {
          this.current.state = 'idle';
          this.current.consecutiveFailures = 0;
          this.current.lastError = null;
          if (!this.pendingNudge) await this.pause(this.options.idlePollMs ?? 5000);
          continue;
        }
        this.current.state = 'publishing';
        await this.untilStopped(this.publishBatch(rows));
        this.current.consecutiveFailures = 0;
        this.current.lastError = null;
      } catch (error) {
        if (this.stopped) break;
        this.current.consecutiveFailures += 1;
        this.current.lastError = error instanceof Error ? error.message : String(error);
        this.current.state = 'backing-off';
        const delay = backoffDelay(
          this.options.backoff ?? DEFAULT_BACKOFF,
          this.current.consecutiveFailures,
          0.2,
        );
        // One line per outage, not per retry: health carries the running count.
        if (this.current.consecutiveFailures === 1) {
          this.options.warn?.(
            `outbox relay: broker unavailable (${this.current.lastError}); retrying with backoff`,
          );
        }
        await this.pause(delay);
      }
    }
  }

  private async publishBatch(rows: OutboxRow[]): Promise<void> {
    try {
      await this.publisher.ready();
      if (!this.publisher.isConnected()) throw new Error('broker disconnected');
    } catch (error) {
      // Release the claim at once: the rows go out as soon as the broker is back, not when the lease ends.
      await this.store.markFailed(
        rows.map((row) => row.seq),
        error instanceof Error ? error.message : String(error),
      );
      throw error;
    }
    // Pipelined in one round trip window; ordering across a partial failure is best effort (consumers sort by time).
    const results = await Promise.allSettled(
      rows.map((row) => this.publisher.publish(row.subject, row.payload, row.eventId)),
    );
    const acked: OutboxRow[] = [];
    const failed: OutboxRow[] = [];
    let firstError: unknown;
    results.forEach((result, index) => {
      const row = rows[index]!;
      if (result.status === 'fulfilled') {
        acked.push(row);
        if (result.value.duplicate) this.current.duplicates += 1;
      } else {
        failed.push(row);
        firstError ??= result.reason;
      }
    });
    const ackedAt = performance.now();
    await this.store.markPublished(acked.map((row) => row.seq));
    this.current.published += acked.length;
    if (acked.length > 0) {
      this.current.lastPublishedAt = new Date().toISOString();
      this.options.onPublished?.(acked, ackedAt);
    }
    if (failed.length > 0) {
      const message = firstError instanceof Error ? firstError.message : String(firstError);
      await this.store.markFailed(
        failed.map((row) => row.seq),
        message,
      );
      throw firstError instanceof Error ? firstError : new Error(message);
    }
  }

  /** Wait for `ms`, a wake-up (nudge when idle, reconnect, stop), whichever comes first. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** Race a round against stop() so closing the server never waits for a broker timeout. */
  private untilStopped<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    return new Promise<T>((resolve, reject) => {
      const wake = (): void => {
        if (this.stopped) reject(new Error('relay stopped'));
      };
      this.wake = wake;
      work.then(resolve, reject).finally(() => {
        // Only clear our own hook: the loop may already have installed a pause's.
        if (this.wake === wake) this.wake = undefined;
      });
    });
  }
}
