import type { OutboxEvent, OutboxRepository, OutboxRow } from '../../contracts/outbox-repository.js';
import { run, type Database } from './database.js';
import { outboxRowOf, type OutboxRowData } from '../rows.js';

const COLUMNS = 'seq, event_id, subject, payload, created_at, published_at';

/** Insert one event on `db` (inside the caller's transaction when there is one); returns its seq. */
export function insertOutboxEvent(db: Database, event: OutboxEvent): number {
  const info = db
    .prepare('INSERT INTO orchestrator_outbox (event_id, subject, payload, created_at) VALUES (?, ?, ?, ?)')
    .run(event.id, event.subject, JSON.stringify(event.payload), new Date().toISOString());
  return Number(info.lastInsertRowid);
}

/** The durable outbox in `orchestrator_outbox`; a claim is a `claimed_until` time on the row. */
export class SqliteOutboxRepository implements OutboxRepository {
  constructor(private readonly db: Database) {}

  add(event: OutboxEvent): Promise<number> {
    return run(() => insertOutboxEvent(this.db, event));
  }

  claim(limit: number, leaseMs: number): Promise<OutboxRow[]> {
    return run(() => {
      const now = new Date();
      const until = new Date(now.getTime() + leaseMs).toISOString();
      return this.db
        .transaction(() => {
          const rows = this.db
            .prepare(
              `SELECT ${COLUMNS} FROM orchestrator_outbox
               WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ?) ORDER BY seq LIMIT ?`,
            )
            .all(now.toISOString(), limit) as OutboxRowData[];
          const mark = this.db.prepare('UPDATE orchestrator_outbox SET claimed_until = ? WHERE seq = ?');
          for (const row of rows) mark.run(until, row.seq);
          return rows.map(outboxRowOf);
        })
        .immediate();
    });
  }

  markPublished(seqs: readonly number[]): Promise<void> {
    return run(() => {
      const now = new Date().toISOString();
      const mark = this.db.prepare(
        `UPDATE orchestrator_outbox SET published_at = ?, publish_attempts = publish_attempts + 1, last_error = NULL,
           claimed_until = NULL WHERE seq = ?`,
      );
      this.db
        .transaction(() => {
          for (const seq of seqs) mark.run(now, seq);
        })
        .immediate();
    });
  }

  markFailed(seqs: readonly number[], error: string): Promise<void> {
    return run(() => {
      const fail = this.db.prepare(
        `UPDATE orchestrator_outbox SET publish_attempts = publish_attempts + 1, last_error = ?, claimed_until = NULL
         WHERE seq = ?`,
      );
      this.db
        .transaction(() => {
          for (const seq of seqs) fail.run(error.slice(0, 500), seq);
        })
        .immediate();
    });
  }

  after(cursor: number, limit: number): Promise<OutboxRow[]> {
    return run(() =>
      (
        this.db
          .prepare(`SELECT ${COLUMNS} FROM orchestrator_outbox WHERE seq > ? ORDER BY seq LIMIT ?`)
          .all(cursor, limit) as OutboxRowData[]
      ).map(outboxRowOf),
    );
  }

  prune(before: string, includeUnpublished: boolean): Promise<number> {
    return run(() => {
      const sql = includeUnpublished
        ? 'DELETE FROM orchestrator_outbox WHERE created_at < ?'
        : 'DELETE FROM orchestrator_outbox WHERE created_at < ? AND published_at IS NOT NULL';
      return this.db.prepare(sql).run(before).changes;
    });
  }

  backlog(): Promise<{ count: number; oldestCreatedAt: string | null }> {
    return run(() => {
      const row = this.db
        .prepare(
          'SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM orchestrator_outbox WHERE published_at IS NULL',
        )
        .get() as { count: number; oldest: string | null };
      return { count: row.count, oldestCreatedAt: row.oldest };
    });
  }

  lastSeq(): Promise<number> {
    return run(
      () =>
        (this.db.prepare('SELECT MAX(seq) AS seq FROM orchestrator_outbox').get() as { seq: number | null })
          .seq ?? 0,
    );
  }
}
