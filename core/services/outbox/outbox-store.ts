import type { Database, Statement } from 'better-sqlite3';

/** One event to write to the outbox: its stable id, broker subject and JSON payload (never an image). */
export interface OutboxEvent {
  /** UUID shared by the HTTP response, the outbox row, the JetStream msgID and every delivery. */
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

interface RawRow {
  seq: number;
  event_id: string;
  subject: string;
  payload: string;
  created_at: string;
  published_at: string | null;
}

const COLUMNS = 'seq, event_id, subject, payload, created_at, published_at';

function toRow(raw: RawRow): OutboxRow {
  return {
    seq: raw.seq,
    eventId: raw.event_id,
    subject: raw.subject,
    payload: raw.payload,
    createdAt: raw.created_at,
    publishedAt: raw.published_at,
  };
}

/**
 * The durable outbox table (`orchestrator_outbox`). `insert` runs inside the caller's transaction (the audit
 * row's), so a result exists in the outbox exactly when its audit row does; the relay later marks it published.
 */
export class OutboxStore {
  private readonly insertStmt: Statement<[string, string, string, string]>;
  private readonly unpublishedStmt: Statement<[number]>;
  private readonly afterStmt: Statement<[number, number]>;
  private readonly markStmt: Statement<[string, number]>;
  private readonly failStmt: Statement<[string, number]>;

  constructor(private readonly db: Database) {
    this.insertStmt = db.prepare(
      'INSERT INTO orchestrator_outbox (event_id, subject, payload, created_at) VALUES (?, ?, ?, ?)',
    );
    this.unpublishedStmt = db.prepare(
      `SELECT ${COLUMNS} FROM orchestrator_outbox WHERE published_at IS NULL ORDER BY seq LIMIT ?`,
    );
    this.afterStmt = db.prepare(
      `SELECT ${COLUMNS} FROM orchestrator_outbox WHERE seq > ? ORDER BY seq LIMIT ?`,
    );
    this.markStmt = db.prepare(
      'UPDATE orchestrator_outbox SET published_at = ?, publish_attempts = publish_attempts + 1, last_error = NULL WHERE seq = ?',
    );
    this.failStmt = db.prepare(
      'UPDATE orchestrator_outbox SET publish_attempts = publish_attempts + 1, last_error = ? WHERE seq = ?',
    );
  }

  /**
   * Write one event. Call it inside the transaction that writes the request's audit row; `db` is that
   * transaction's connection (the same handle in this single-connection store).
   */
  insert(event: OutboxEvent, db: Database = this.db): number {
    const statement = db === this.db ? this.insertStmt : db.prepare(this.insertStmt.source);
    const info = statement.run(
      event.id,
      event.subject,
      JSON.stringify(event.payload),
      new Date().toISOString(),
    );
    return Number(info.lastInsertRowid);
  }

  /** Oldest unpublished rows first, at most `limit`. */
  unpublished(limit: number): OutboxRow[] {
    return (this.unpublishedStmt.all(limit) as RawRow[]).map(toRow);
  }

  /** Rows after a cursor (published or not): the LAN consumers' feed. */
  after(cursor: number, limit: number): OutboxRow[] {
    return (this.afterStmt.all(cursor, limit) as RawRow[]).map(toRow);
  }

  /** Mark rows acknowledged by the broker, in one transaction. */
  markPublished(seqs: readonly number[]): void {
    if (seqs.length === 0) return;
    const now = new Date().toISOString();
    this.db.transaction(() => {
      for (const seq of seqs) this.markStmt.run(now, seq);
    })();
  }

  /** Record a failed publish attempt (the message only: never payload data). */
  markFailed(seqs: readonly number[], error: string): void {
    if (seqs.length === 0) return;
    this.db.transaction(() => {
      for (const seq of seqs) this.failStmt.run(error.slice(0, 500), seq);
    })();
  }

  /**
   * Delete rows created before `before` (ISO time). Unpublished rows go too only when `includeUnpublished`: with a
   * broker configured they are still owed to it.
   */
  prune(before: string, includeUnpublished: boolean): number {
    const sql = includeUnpublished
      ? 'DELETE FROM orchestrator_outbox WHERE created_at < ?'
      : 'DELETE FROM orchestrator_outbox WHERE created_at < ? AND published_at IS NOT NULL';
    return this.db.prepare(sql).run(before).changes;
  }

  /** Unpublished rows and the age of the oldest, for health. */
  backlog(): { count: number; oldestCreatedAt: string | null } {
    const row = this.db
      .prepare(
        'SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM orchestrator_outbox WHERE published_at IS NULL',
      )
      .get() as { count: number; oldest: string | null };
    return { count: row.count, oldestCreatedAt: row.oldest };
  }

  /** Highest sequence number written so far (0 when empty). */
  lastSeq(): number {
    const row = this.db.prepare('SELECT MAX(seq) AS seq FROM orchestrator_outbox').get() as {
      seq: number | null;
    };
    return row.seq ?? 0;
  }
}
