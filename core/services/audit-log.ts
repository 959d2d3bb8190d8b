import { chainHash, GENESIS_HASH, type AuditFields } from '../contracts/audit-chain.js';
import type { AuditEffects, AuditQuery, AuditRepository, AuditRow } from '../contracts/audit-repository.js';

export type { AuditQuery, AuditRow } from '../contracts/audit-repository.js';

/** Outcome of the hash-chain check. */
export interface ChainCheck {
  ok: boolean;
  checked: number;
  firstBrokenSeq: number | null;
  message: string;
}

/** Rows read per page when the chain is verified. */
const VERIFY_PAGE = 1000;

/** Append-only, hash-chained audit log: one row per API request (the store refuses changes to written rows). */
export class AuditLog {
  constructor(private readonly rows: AuditRepository) {}

  /** Append a row and its effects (the request's outbox events) atomically; returns the row's seq. */
  append(fields: AuditFields, effects?: AuditEffects): Promise<number> {
    return this.rows.append(fields, effects);
  }

  /** Rows matching the filters, newest first, keyset-paged by seq (fast at any depth). */
  query(query: AuditQuery = {}): Promise<AuditRow[]> {
    return this.rows.query(query);
  }

  /** One row by seq. */
  async get(seq: number): Promise<AuditRow | null> {
    return (await this.rows.get(seq)) ?? null;
  }

  /** Recompute the chain from the first row and report the first row whose hash or link is wrong. */
  async verifyChain(): Promise<ChainCheck> {
    let prev = GENESIS_HASH;
    let checked = 0;
    for (let after = 0; ;) {
      const page = await this.rows.range(after, VERIFY_PAGE);
      for (const row of page) {
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
      if (page.length < VERIFY_PAGE) break;
      after = page.at(-1)!.seq;
    }
    return {
      ok: true,
      checked,
      firstBrokenSeq: null,
      message: `Audit chain intact: ${checked} rows verified.`,
    };
  }

  /** Daily request volume and rejections by failed step over the last `days` days (for the console's charts). */
  async dailyStats(
    days = 30,
  ): Promise<{ day: string; total: number; rejected: number; byStep: Record<string, number> }[]> {
    const since = new Date(Date.now() - days * 86_400_000).toISOString();
    const byDay = new Map<
      string,
      { day: string; total: number; rejected: number; byStep: Record<string, number> }
    >();
    for (const r of await this.rows.dailyCounts(since)) {
      const entry = byDay.get(r.day) ?? { day: r.day, total: 0, rejected: 0, byStep: {} };
      entry.total += r.total;
      entry.rejected += r.rejected;
      if (r.failedStep && r.rejected)
        entry.byStep[r.failedStep] = (entry.byStep[r.failedStep] ?? 0) + r.rejected;
      byDay.set(r.day, entry);
    }
    return [...byDay.values()];
  }

  count(): Promise<number> {
    return this.rows.count();
  }
}
