/** One event to write to the outbox: its stable id, broker subject and JSON payload (never an image). */
export interface OutboxEvent {
  /** UUID shared by the HTTP response, the outbox row, the JetStream msgID and every delivery; unique. */
  id: string;
  /** Broker subject, e.g. `idv.events.orchestrator.verification`. */
  subject: string;
  /** The event document published as JSON. */
  payload: Record<string, unknown>;
}

/** An outbox row as stored. */
export interface OutboxRow {
  /** Monotonic position; the cursor of the LAN event feed and SSE's `id:`. */
  seq: number;
  eventId: string;
  subject: string;
  /** The payload as stored JSON text (published byte for byte). */
  payload: string;
  createdAt: string;
  publishedAt: string | null;
}

/**
 * The durable event outbox. Events of a request are written with its audit row (AuditRepository.append); `add` is
 * for events without one. Relays claim unpublished rows so that with several relays (replicas) each row is sent by
 * one of them at a time.
 */
export interface OutboxRepository {
  /** Write one event on its own; returns its seq. */
  add(event: OutboxEvent): Promise<number>;
  /**
   * Up to `limit` unpublished rows, oldest first, that no other claim holds, now held by this claim for `leaseMs`
   * (a relay that dies mid-publish releases them when the lease runs out).
   */
  claim(limit: number, leaseMs: number): Promise<OutboxRow[]>;
  /** Mark rows acknowledged by the broker. */
  markPublished(seqs: readonly number[]): Promise<void>;
  /** Record a failed publish attempt (the message only) and release the rows' claim. */
  markFailed(seqs: readonly number[], error: string): Promise<void>;
  /** Rows after a cursor, published or not, oldest first: the LAN consumers' feed. */
  after(cursor: number, limit: number): Promise<OutboxRow[]>;
  /** Delete rows created before `before` (ISO time); unpublished ones only when `includeUnpublished`. */
  prune(before: string, includeUnpublished: boolean): Promise<number>;
  /** Unpublished rows and the creation time of the oldest. */
  backlog(): Promise<{ count: number; oldestCreatedAt: string | null }>;
  /** Highest seq written so far (0 when empty). */
  lastSeq(): Promise<number>;
}
