import type pg from 'pg';
import type { OutboxEvent, OutboxRepository, OutboxRow } from '../../contracts/outbox-repository.js';
import { query, transaction, type Queryable } from './connection.js';
import { takeNumbers } from './sequence-heads.js';
import { outboxRowOf, type OutboxRowData } from '../rows.js';

const COLUMNS = 'seq, event_id, subject, payload, created_at, published_at';

/**
 * Insert events inside the caller's transaction; returns the seq of the last. The seq comes from the outbox's
 * sequence head, locked to the end of the transaction, so the LAN feed's cursor never passes a row committed late.
 */
export async function insertOutboxEvents(client: Queryable, events: readonly OutboxEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const first = await takeNumbers(client, 'orchestrator_outbox', events.length);
  const now = new Date().toISOString();
  for (const [i, event] of events.entries()) {
    await query(
      client,
      'INSERT INTO orchestrator_outbox (seq, event_id, subject, payload, created_at) VALUES ($1, $2, $3, $4, $5)',
      [first + i, event.id, event.subject, JSON.stringify(event.payload), now],
    );
  }
  return first + events.length - 1;
}

/** The durable outbox in `orchestrator_outbox`; relays claim rows with FOR UPDATE SKIP LOCKED and a lease time. */
export class PostgresOutboxRepository implements OutboxRepository {
  constructor(private readonly pool: pg.Pool) {}

  add(event: OutboxEvent): Promise<number> {
    return transaction(this.pool, (client) => insertOutboxEvents(client, [event]));
  }

  async claim(limit: number, leaseMs: number): Promise<OutboxRow[]> {
    const now = new Date();
    const until = new Date(now.getTime() + leaseMs).toISOString();
    // SKIP LOCKED: a concurrent claim takes the next free rows instead of waiting for (and then re-taking) these.
    const rows = await query<OutboxRowData>(
      this.pool,
      `UPDATE orchestrator_outbox SET claimed_until = $1
       WHERE seq IN (
         SELECT seq FROM orchestrator_outbox
         WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $2)
         ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [until, now.toISOString(), limit],
    );
    return rows.sort((a, b) => a.seq - b.seq).map(outboxRowOf);
  }

  async markPublished(seqs: readonly number[]): Promise<void> {
    await query(
      this.pool,
      `UPDATE orchestrator_outbox SET published_at = $1, publish_attempts = publish_attempts + 1, last_error = NULL,
         claimed_until = NULL WHERE seq = ANY($2::bigint[])`,
      [new Date().toISOString(), seqs],
    );
  }

  async markFailed(seqs: readonly number[], error: string): Promise<void> {
    await query(
      this.pool,
      `UPDATE orchestrator_outbox SET publish_attempts = publish_attempts + 1, last_error = $1, claimed_until = NULL
       WHERE seq = ANY($2::bigint[])`,
      [error.slice(0, 500), seqs],
    );
  }

  async after(cursor: number, limit: number): Promise<OutboxRow[]> {
    return (
      await query<OutboxRowData>(
        this.pool,
        `SELECT ${COLUMNS} FROM orchestrator_outbox WHERE seq > $1 ORDER BY seq LIMIT $2`,
        [cursor, limit],
      )
    ).map(outboxRowOf);
  }

  async prune(before: string, includeUnpublished: boolean): Promise<number> {
    const sql = includeUnpublished
      ? 'DELETE FROM orchestrator_outbox WHERE created_at < $1'
      : 'DELETE FROM orchestrator_outbox WHERE created_at < $1 AND published_at IS NOT NULL';
    const rows = await query<{ seq: number }>(this.pool, `${sql} RETURNING seq`, [before]);
    return rows.length;
  }

  async backlog(): Promise<{ count: number; oldestCreatedAt: string | null }> {
    const [row] = await query<{ count: number; oldest: string | null }>(
      this.pool,
      'SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM orchestrator_outbox WHERE published_at IS NULL',
    );
    return { count: row?.count ?? 0, oldestCreatedAt: row?.oldest ?? null };
  }

  async lastSeq(): Promise<number> {
    const [row] = await query<{ seq: number | null }>(
      this.pool,
      'SELECT MAX(seq) AS seq FROM orchestrator_outbox',
    );
    return row?.seq ?? 0;
  }
}
