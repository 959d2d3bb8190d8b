import type pg from 'pg';
import { auditValues, chainHash, GENESIS_HASH, type AuditFields } from '../../contracts/audit-chain.js';
import type {
  AuditDayCount,
  AuditEffects,
  AuditQuery,
  AuditRepository,
  AuditRow,
} from '../../contracts/audit-repository.js';
import { query, transaction } from './connection.js';
import { insertOutboxEvents } from './outbox-repository.js';
import { auditRowOf, type AuditRowData } from '../rows.js';

const INSERT = `INSERT INTO audit_log (seq, time, request_id, method, route, key_id, auth_outcome, http_status,
  result_status, failed_step, reason, scores, latency_ms, mobile_masked, event, prev_hash, hash)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`;

/**
 * The hash-chained audit log in `audit_log` (a trigger refuses UPDATE and DELETE). The chain head (last seq and hash,
 * in sequence_heads) is locked FOR UPDATE in each append's transaction: appends from every replica queue on it, so
 * the rows form one chain with gapless seqs.
 */
export class PostgresAuditRepository implements AuditRepository {
  constructor(private readonly pool: pg.Pool) {}

  append(fields: AuditFields, effects: AuditEffects = {}): Promise<number> {
    return transaction(this.pool, async (client) => {
      const seq = await this.chain(client, [fields]);
      await insertOutboxEvents(client, effects.outbox ?? []);
      return seq;
    });
  }

  /**
   * Chain and insert one row inside the caller's transaction (another repository's write that commits with its
   * audit row); returns its seq.
   */
  appendWithin(client: pg.PoolClient, fields: AuditFields): Promise<number> {
    return this.chain(client, [fields]);
  }

  appendMany(rows: readonly AuditFields[]): Promise<number> {
    return transaction(this.pool, (client) => this.chain(client, rows));
  }

  async query(q: AuditQuery): Promise<AuditRow[]> {
    const where: string[] = [];
    const args: (string | number)[] = [];
    const add = (column: string, op: string, value: string | number | undefined): void => {
      if (value === undefined || value === '') return;
      args.push(value);
      where.push(`${column} ${op} $${args.length}`);
    };
    add('time', '>=', q.from);
    add('time', '<=', q.to);
    add('route', '=', q.route);
    add('result_status', '=', q.resultStatus);
    add('failed_step', '=', q.failedStep);
    add('key_id', '=', q.keyId);
    add('mobile_masked', '=', q.mobileMasked);
    add('http_status', '=', q.httpStatus);
    add('seq', '<', q.beforeSeq);
    const limit = Math.min(Math.max(Math.floor(q.limit ?? 50), 1), 1000);
    const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ${limit}`;
    return (await query<AuditRowData>(this.pool, sql, args)).map(auditRowOf);
  }

  async get(seq: number): Promise<AuditRow | undefined> {
    const [row] = await query<AuditRowData>(this.pool, 'SELECT * FROM audit_log WHERE seq = $1', [seq]);
    return row && auditRowOf(row);
  }

  async range(afterSeq: number, limit: number): Promise<AuditRow[]> {
    return (
      await query<AuditRowData>(this.pool, 'SELECT * FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT $2', [
        afterSeq,
        limit,
      ])
    ).map(auditRowOf);
  }

  dailyCounts(since: string): Promise<AuditDayCount[]> {
    return query<AuditDayCount>(
      this.pool,
      `SELECT substr(time, 1, 10) AS day, failed_step AS "failedStep", COUNT(*)::int AS total,
         COUNT(*) FILTER (WHERE result_status = 'REJECTED')::int AS rejected
       FROM audit_log WHERE time >= $1 GROUP BY day, failed_step ORDER BY day`,
      [since],
    );
  }

  async count(): Promise<number> {
    const [row] = await query<{ n: number }>(this.pool, 'SELECT COUNT(*) AS n FROM audit_log');
    return row?.n ?? 0;
  }

  /** Lock the chain head, insert `rows` chained after it and move the head; returns the last seq. */
  private async chain(client: pg.PoolClient, rows: readonly AuditFields[]): Promise<number> {
    const [head] = await query<{ seq: number; hash: string | null }>(
      client,
      "SELECT seq, hash FROM sequence_heads WHERE name = 'audit' FOR UPDATE",
    );
    if (!head) throw new Error('The audit chain head is missing');
    let seq = head.seq;
    let prevHash = head.hash ?? GENESIS_HASH;
    for (const f of rows) {
      const hash = chainHash(prevHash, f);
      seq++;
      await query(client, INSERT, [seq, ...auditValues(f), prevHash, hash]);
      prevHash = hash;
    }
    await query(client, "UPDATE sequence_heads SET seq = $1, hash = $2 WHERE name = 'audit'", [
      seq,
      prevHash,
    ]);
    return seq;
  }
}
