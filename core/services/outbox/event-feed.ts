import type { OutboxRepository, OutboxRow } from '../../contracts/outbox-repository.js';

/** One page of the LAN event feed. */
export interface FeedPage {
  /** Events after the cursor, oldest first, as published (parsed payloads). */
  events: Record<string, unknown>[];
  /** Outbox position of each event (same order): SSE `id:` values. */
  positions: number[];
  /** Cursor to pass as `after` next time: the last returned position, or the given one when nothing is new. */
  cursor: number;
}

/** Longest long-poll wait the feed grants, in milliseconds. */
export const MAX_WAIT_MS = 25_000;

/**
 * The embedded API's event feed for LAN consumers without a broker: reads the outbox by cursor, long-polls for
 * new rows and pushes to SSE subscribers. `notify()` runs after each commit; `close()` releases every waiter.
 */
export class EventFeed {
  private readonly listeners = new Set<() => void>();
  private closed = false;

  constructor(private readonly store: OutboxRepository) {}

  /** A page after `cursor`, without waiting. */
  async read(cursor: number, limit: number): Promise<FeedPage> {
    return toPage(await this.store.after(cursor, limit), cursor);
  }

  /** A page after `cursor`; when empty, waits up to `waitMs` (capped) for a commit, the signal or close. */
  async wait(cursor: number, limit: number, waitMs: number, signal?: AbortSignal): Promise<FeedPage> {
    const first = await this.read(cursor, limit);
    if (first.events.length > 0 || waitMs <= 0 || this.closed || signal?.aborted) return first;
    await new Promise<void>((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.listeners.delete(finish);
        signal?.removeEventListener('abort', finish);
        resolve();
      };
      const timer = setTimeout(finish, Math.min(waitMs, MAX_WAIT_MS));
      this.listeners.add(finish);
      signal?.addEventListener('abort', finish, { once: true });
    });
    return this.read(cursor, limit);
  }

  /** Call `listener` after every commit until the returned function is called or the feed closes. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Highest position written, where a fresh SSE client starts. */
  head(): Promise<number> {
    return this.store.lastSeq();
  }

  /** Wake waiters and subscribers after a commit. */
  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Release every waiter (server closing); subscribers get a last call and are dropped. */
  close(): void {
    this.closed = true;
    this.notify();
    this.listeners.clear();
  }

  isClosed(): boolean {
    return this.closed;
  }
}

function toPage(rows: OutboxRow[], cursor: number): FeedPage {
  const last = rows.at(-1);
  return {
    events: rows.map((row) => JSON.parse(row.payload) as Record<string, unknown>),
    positions: rows.map((row) => row.seq),
    cursor: last ? last.seq : cursor,
  };
}
