import type { AuditFields } from './audit-chain.js';
import type { OutboxEvent } from './outbox-repository.js';

export type { AuditFields } from './audit-chain.js';

/** A stored audit row as the console and CLI read it. */
export interface AuditRow extends AuditFields {
  seq: number;
  prevHash: string;
  hash: string;
}

/** Filters of the audit query (all optional, combined with AND). */
export interface AuditQuery {
  from?: string;
  to?: string;
  route?: string;
  resultStatus?: string;
  failedStep?: string;
  keyId?: string;
  mobileMasked?: string;
  httpStatus?: number;
  /** Keyset paging: rows with seq below this one (newest first). */
  beforeSeq?: number;
  /** At most this many rows (1-1000, default 50). */
  limit?: number;
}

/** Requests and rejections of one day and failed step (null: no failed step). */
export interface AuditDayCount {
  /** YYYY-MM-DD (UTC). */
  day: string;
  failedStep: string | null;
  total: number;
  rejected: number;
}

/** What commits in the same transaction as an audit row. */
export interface AuditEffects {
  /** Events of the request (the orchestrator's result): in the outbox exactly when the audit row exists. */
  outbox?: readonly OutboxEvent[];
}

/**
 * The append-only, hash-chained audit log (audit-chain.ts). The adapter chains rows itself, at the database, so
 * that concurrent writers (requests, processes, replicas) still form one chain: each append reads the previous
 * row's hash and inserts the new row in one serialised transaction.
 */
export interface AuditRepository {
  /** Append a row and its effects atomically (all or nothing); returns the row's seq. */
  append(fields: AuditFields, effects?: AuditEffects): Promise<number>;
  /** Append rows in order in one transaction (imports, seeding); returns the last seq. */
  appendMany(rows: readonly AuditFields[]): Promise<number>;
  /** Rows matching the filters, newest first, keyset-paged by seq (the same cost at any depth). */
  query(query: AuditQuery): Promise<AuditRow[]>;
  /** One row by seq. */
  get(seq: number): Promise<AuditRow | undefined>;
  /** Up to `limit` rows with seq above `afterSeq`, in chain order (verification pages through with it). */
  range(afterSeq: number, limit: number): Promise<AuditRow[]>;
  /** Counts by day and failed step of the rows at or after `since` (ISO time), by day. */
  dailyCounts(since: string): Promise<AuditDayCount[]>;
  count(): Promise<number>;
}
