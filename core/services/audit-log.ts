import type { Database } from 'better-sqlite3';
import { chainHash, GENESIS_HASH, type AuditFields } from './audit-chain.js';

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
  limit?: number;
}

/** Outcome of the hash-chain check. */
export interface ChainCheck {
  ok: boolean;
  checked: number;
  firstBrokenSeq: number | null;
  message: string;
}

interface DbRow {
  seq: number;
  time: string;
  request_id: string;
  method: string;
  route: string;
  key_id: string | null;
  auth_outcome: string;
  http_status: number;
  result_status: string | null;
  failed_step: string | null;
  reason: string | null;
  scores: string | null;
  latency_ms: number;
  mobile_masked: string | null;
  event: string | null;
  prev_hash: string;
  hash: string;
}

/** Append-only, hash-chained audit log: one row per API request (triggers forbid UPDATE and DELETE). */
export class AuditLog {
  constructor(private readonly db: Database) {}

  /** Append a row (and optional extra work) in one immediate transaction; returns the row's seq. */
  append(fields: AuditFields, inTransaction?: (db: Database) => void): number {
    const run = this.db.transaction(() => {
      const last = this.db.prepare('SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as
        { hash: string } | undefined;
      const prevHash = last?.hash ?? GENESIS_HASH;
      const hash = chainHash(prevHash, fields);
      const info = this.db
        .prepare(
          `INSERT INTO audit_log (time, request_id, method, route, key_id, auth_outcome, http_status, result_status,
             failed_step, reason, scores, latency_ms, mobile_masked, event, prev_hash, hash)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          fields.time,
          fields.requestId,
          fields.method,
          fields.route,
          fields.keyId,
          fields.authOutcome,
          fields.httpStatus,
          fields.resultStatus,
          fields.failedStep,
          fields.reason,
          fields.scores,
          Math.round(fields.latencyMs * 1000) / 1000,
          fields.mobileMasked,
          fields.event,
          prevHash,
          hash,
        );
      inTransaction?.(this.db);
      return Number(info.lastInsertRowid);
    });
    return run.immediate();
  }

  /** Rows matching the filters, newest first, keyset-paged by seq (fast at any depth). */
  query(q: AuditQuery = {}): AuditRow[] {
    const where: string[] = [];
    const args: (string | number)[] = [];
    const add = (sql: string, value: string | number | undefined): void => {
      if (value === undefined || value === '') return;
      where.push(sql);
      args.push(value);
    };
    add('time >= ?', q.from);
    add('time <= ?', q.to);
    add('route = ?', q.route);
    add('result_status = ?', q.resultStatus);
    add('failed_step = ?', q.failedStep);
    add('key_id = ?', q.keyId);
    add('mobile_masked = ?', q.mobileMasked);
    add('http_status = ?', q.httpStatus);
    add('seq < ?', q.beforeSeq);
    const limit = Math.min(Math.max(q.limit ?? 50, 1), 1000);
    const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ${limit}`;
    return (this.db.prepare(sql).all(...args) as DbRow[]).map(fromDb);
  }

  /** One row by seq. */
  get(seq: number): AuditRow | null {
    const row = this.db.prepare('SELECT * FROM audit_log WHERE seq = ?').get(seq) as DbRow | undefined;
    return row ? fromDb(row) : null;
  }

  /** Recompute the chain from the first row and report the first row whose hash or link is wrong. */
  verifyChain(): ChainCheck {
    let prev = GENESIS_HASH;
    let checked = 0;
    for (const raw of this.db
      .prepare('SELECT * FROM audit_log ORDER BY seq')
      .iterate() as IterableIterator<DbRow>) {
      const row = fromDb(raw);
      if (row.prevHash !== prev || chainHash(prev, row) !== row.hash) {
        return {
          ok: false,
          checked,
          firstBrokenSeq: row.seq,
          message: `Audit chain broken at row ${row.seq}: the row was altered, removed or inserted out of order.`,
        };
      }
      prev = row.hash;
      checked++;
    }
    return {
      ok: true,
      checked,
      firstBrokenSeq: null,
      message: `Audit chain intact: ${checked} rows verified.`,
    };
  }

  /** Daily request volume and rejections by failed step over the last `days` days (for the console's charts). */
  dailyStats(days = 30): { day: string; total: number; rejected: number; byStep: Record<string, number> }[] {
    const since = new Date(Date.now() - days * 86_400_000).toISOString();
    const rows = this.db
      .prepare(
        `SELECT substr(time, 1, 10) AS day, COUNT(*) AS total,
           SUM(result_status = 'REJECTED') AS rejected, failed_step
         FROM audit_log WHERE time >= ? GROUP BY day, failed_step ORDER BY day`,
      )
      .all(since) as { day: string; total: number; rejected: number; failed_step: string | null }[];
    const byDay = new Map<
      string,
      { day: string; total: number; rejected: number; byStep: Record<string, number> }
    >();
    for (const r of rows) {
      const entry = byDay.get(r.day) ?? { day: r.day, total: 0, rejected: 0, byStep: {} };
      entry.total += r.total;
      entry.rejected += r.rejected;
      if (r.failed_step && r.rejected)
        entry.byStep[r.failed_step] = (entry.byStep[r.failed_step] ?? 0) + r.rejected;
      byDay.set(r.day, entry);
    }
    return [...byDay.values()];
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM audit_log').get() as { n: number }).n;
  }
}

function fromDb(r: DbRow): AuditRow {
  return {
    seq: r.seq,
    time: r.time,
    requestId: r.request_id,
    method: r.method,
    route: r.route,
    keyId: r.key_id,
    authOutcome: r.auth_outcome,
    httpStatus: r.http_status,
    resultStatus: r.result_status,
    failedStep: r.failed_step,
    reason: r.reason,
    scores: r.scores,
    latencyMs: r.latency_ms,
    mobileMasked: r.mobile_masked,
    event: r.event,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}
