import { auditValues, chainHash, GENESIS_HASH, type AuditFields } from '../../contracts/audit-chain.js';
import type {
  AuditDayCount,
  AuditEffects,
  AuditQuery,
  AuditRepository,
  AuditRow,
} from '../../contracts/audit-repository.js';
import { run, type Database } from './database.js';
import { insertOutboxEvent } from './outbox-repository.js';
import { auditRowOf, type AuditRowData } from '../rows.js';

/** The hash-chained audit log in `audit_log` (triggers refuse UPDATE and DELETE). */
export class SqliteAuditRepository implements AuditRepository {
  private readonly lastHash;
  private readonly insert;

  constructor(private readonly db: Database) {
    this.lastHash = db.prepare('SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1');
    this.insert = db.prepare(
      `INSERT INTO audit_log (time, request_id, method, route, key_id, auth_outcome, http_status, result_status,
         failed_step, reason, scores, latency_ms, mobile_masked, event, prev_hash, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  append(fields: AuditFields, effects: AuditEffects = {}): Promise<number> {
    return run(() =>
      // IMMEDIATE: the write lock is taken before the previous hash is read, so other processes chain after us.
      this.db
        .transaction(() => {
          const seq = this.appendRow(fields);
          for (const event of effects.outbox ?? []) insertOutboxEvent(this.db, event);
          return seq;
        })
        .immediate(),
    );
  }

  appendMany(rows: readonly AuditFields[]): Promise<number> {
    return run(() =>
      this.db
        .transaction(() => {
          let seq = 0;
          let prevHash = this.previousHash();
          for (const fields of rows) {
            const hash = chainHash(prevHash, fields);
            seq = this.insertRow(fields, prevHash, hash);
            prevHash = hash;
          }
          return seq;
        })
        .immediate(),
    );
  }

  query(q: AuditQuery): Promise<AuditRow[]> {
    return run(() => {
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
      const limit = Math.min(Math.max(Math.floor(q.limit ?? 50), 1), 1000);
      const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ${limit}`;
      return (this.db.prepare(sql).all(...args) as AuditRowData[]).map(auditRowOf);
    });
  }

  get(seq: number): Promise<AuditRow | undefined> {
    return run(() => {
      const row = this.db.prepare('SELECT * FROM audit_log WHERE seq = ?').get(seq) as
        AuditRowData | undefined;
      return row && auditRowOf(row);
    });
  }

  range(afterSeq: number, limit: number): Promise<AuditRow[]> {
    return run(() =>
      (
        this.db
          .prepare('SELECT * FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?')
          .all(afterSeq, limit) as AuditRowData[]
      ).map(auditRowOf),
    );
  }

  dailyCounts(since: string): Promise<AuditDayCount[]> {
    return run(
      () =>
        this.db
          .prepare(
            `SELECT substr(time, 1, 10) AS day, failed_step AS failedStep, COUNT(*) AS total,
               SUM(result_status = 'REJECTED') AS rejected
             FROM audit_log WHERE time >= ? GROUP BY day, failed_step ORDER BY day`,
          )
          .all(since) as AuditDayCount[],
    );
  }

  count(): Promise<number> {
    return run(() => (this.db.prepare('SELECT COUNT(*) AS n FROM audit_log').get() as { n: number }).n);
  }

  /**
   * Chain and insert one row inside the caller's IMMEDIATE transaction (another repository's write that commits
   * with its audit row); returns its seq.
   */
  appendWithin(fields: AuditFields): number {
    return this.appendRow(fields);
  }

  /** Chain and insert one row; call inside an immediate transaction. */
  private appendRow(fields: AuditFields): number {
    const prevHash = this.previousHash();
    return this.insertRow(fields, prevHash, chainHash(prevHash, fields));
  }

  private previousHash(): string {
    return (this.lastHash.get() as { hash: string } | undefined)?.hash ?? GENESIS_HASH;
  }

  private insertRow(fields: AuditFields, prevHash: string, hash: string): number {
    const info = this.insert.run(...auditValues(fields), prevHash, hash);
    return Number(info.lastInsertRowid);
  }
}
