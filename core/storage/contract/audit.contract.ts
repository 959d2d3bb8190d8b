import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainHash, GENESIS_HASH, type AuditFields } from '../../contracts/audit-chain.js';
import type { AuditRepository } from '../../contracts/audit-repository.js';
import type { StoreFactory, StoreUnderTest } from './harness.js';

/** An audit row of test request `i`: every third rejected at face_match, routes alternating, five days. */
export function auditFields(i: number): AuditFields {
  return {
    time: new Date(Date.UTC(2026, 10, 1 + (i % 5), 12)).toISOString(),
    requestId: `req-${i}`,
    method: 'POST',
    route: i % 2 ? '/v2/verify' : '/v2/enroll-fp',
    keyId: i % 4 === 0 ? 'key-a' : null,
    authOutcome: 'missing',
    httpStatus: 200,
    resultStatus: i % 3 === 0 ? 'REJECTED' : 'SUCCESS',
    failedStep: i % 3 === 0 ? 'face_match' : null,
    reason: null,
    scores: JSON.stringify({ face_match: i / 10 }),
    latencyMs: 12.3456,
    mobileMasked: '+4479*****456',
    event: null,
  };
}

/** Every row in chain order, checking each link and hash; returns the number of rows. */
async function chainLength(audit: AuditRepository): Promise<number> {
  let prev = GENESIS_HASH;
  let count = 0;
  for (let after = 0; ;) {
    const rows = await audit.range(after, 100);
    for (const row of rows) {
      expect(row.prevHash).toBe(prev);
      expect(row.hash).toBe(chainHash(prev, row));
      prev = row.hash;
      count++;
    }
    if (rows.length < 100) return count;
    after = rows.at(-1)!.seq;
  }
}

/** AuditRepository: one hash chain at the database, atomic effects, filtered keyset paging, counts. */
export function auditContract(factory: StoreFactory): void {
  describe('audit repository', () => {
    let subject: StoreUnderTest;
    beforeEach(async () => {
      subject = await factory();
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it('chains every row to the one before, from the genesis hash', async () => {
      const { audit } = subject.store;
      const seqs: number[] = [];
      for (let i = 0; i < 5; i++) seqs.push(await audit.append(auditFields(i)));
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(await chainLength(audit)).toBe(5);
      const first = await audit.get(seqs[0]!);
      expect(first).toMatchObject({ ...auditFields(0), latencyMs: 12.346, prevHash: GENESIS_HASH });
      expect(await audit.get(seqs[4]! + 1000)).toBeUndefined();
    });

    it('keeps one chain with concurrent writers on two handles', async () => {
      const other = await subject.another();
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? other.audit : subject.store.audit).append(auditFields(i)),
        ),
      );
      await subject.store.audit.appendMany(Array.from({ length: 10 }, (_, i) => auditFields(100 + i)));
      expect(await chainLength(subject.store.audit)).toBe(50);
      expect(await other.audit.count()).toBe(50);
    });

    it('commits outbox events with their row, and neither when one fails', async () => {
      const { audit, outbox } = subject.store;
      const id = randomUUID();
      await audit.append(auditFields(1), { outbox: [{ id, subject: 'idv.events.test', payload: { id } }] });
      const [row] = await outbox.after(0, 10);
      expect(row).toMatchObject({ eventId: id, subject: 'idv.events.test', publishedAt: null });
      expect(JSON.parse(row!.payload)).toEqual({ id });
      // The same event id again violates its uniqueness: the audit row must not stay without its event.
      await expect(
        audit.append(auditFields(2), { outbox: [{ id, subject: 'idv.events.test', payload: { id } }] }),
      ).rejects.toThrow();
      expect(await audit.count()).toBe(1);
      expect(await outbox.after(0, 10)).toHaveLength(1);
    });

    it('filters, pages newest first by seq and counts by day', async () => {
      const { audit } = subject.store;
      const seqs = [];
      for (let i = 0; i < 30; i++) seqs.push(await audit.append(auditFields(i)));
      const verify = seqs.filter((_, i) => i % 2 === 1).reverse();
      const page1 = await audit.query({ route: '/v2/verify', limit: 5 });
      expect(page1.map((r) => r.seq)).toEqual(verify.slice(0, 5));
      const page2 = await audit.query({ route: '/v2/verify', limit: 5, beforeSeq: page1.at(-1)!.seq });
      expect(page2.map((r) => r.seq)).toEqual(verify.slice(5, 10));
      const rejected = await audit.query({ failedStep: 'face_match', limit: 100 });
      expect(rejected).toHaveLength(10);
      expect(rejected.every((r) => r.resultStatus === 'REJECTED')).toBe(true);
      expect(await audit.query({ keyId: 'key-a', httpStatus: 200, limit: 100 })).toHaveLength(8);
      expect(await audit.query({ from: '2026-11-05T00:00:00.000Z', limit: 100 })).toHaveLength(6);
      expect(await audit.query({ to: '2026-11-01T23:00:00.000Z', limit: 100 })).toHaveLength(6);
      expect(await audit.query({ mobileMasked: '+4479*****999' })).toEqual([]);
      const days = await audit.dailyCounts('2026-11-02T00:00:00.000Z');
      expect(new Set(days.map((d) => d.day))).toEqual(
        new Set(['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05']),
      );
      expect(days.reduce((n, d) => n + d.total, 0)).toBe(24);
      expect(days.filter((d) => d.failedStep === 'face_match').reduce((n, d) => n + d.rejected, 0)).toBe(8);
      expect(await audit.count()).toBe(30);
    });
  });
}
