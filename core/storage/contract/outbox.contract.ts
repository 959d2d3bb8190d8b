import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxRepository } from '../../contracts/outbox-repository.js';
import type { StoreFactory, StoreUnderTest } from './harness.js';

async function add(outbox: OutboxRepository, n: number): Promise<number[]> {
  const seqs: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    seqs.push(await outbox.add({ id, subject: 'idv.events.test.store', payload: { id, i } }));
  }
  return seqs;
}

/** OutboxRepository: cursor reads, claims that two relays never share, publication marks, pruning. */
export function outboxContract(factory: StoreFactory): void {
  describe('outbox repository', () => {
    let subject: StoreUnderTest;
    beforeEach(async () => {
      subject = await factory();
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it('reads by cursor, tracks the backlog and marks publication', async () => {
      const { outbox } = subject.store;
      expect(await outbox.lastSeq()).toBe(0);
      const seqs = await add(outbox, 3);
      expect((await outbox.after(0, 10)).map((row) => row.seq)).toEqual(seqs);
      expect((await outbox.after(seqs[0]!, 1)).map((row) => row.seq)).toEqual([seqs[1]]);
      await outbox.markPublished([seqs[0]!]);
      expect((await outbox.after(0, 1))[0]?.publishedAt).not.toBeNull();
      expect(await outbox.backlog()).toMatchObject({ count: 2 });
      expect(await outbox.lastSeq()).toBe(seqs[2]);
    });

    it('never hands one row to two claims until the lease ends or a failure releases it', async () => {
      const other = await subject.another();
      const seqs = await add(subject.store.outbox, 4);
      const [first, second] = await Promise.all([
        subject.store.outbox.claim(3, 60_000),
        other.outbox.claim(3, 60_000),
      ]);
      const claimed = [...first, ...second].map((row) => row.seq).sort((a, b) => a - b);
      expect(claimed).toEqual(seqs);
      expect(await subject.store.outbox.claim(10, 60_000)).toEqual([]);
      // A failed publish releases its rows at once; a published row is never claimed again.
      await subject.store.outbox.markFailed([seqs[0]!], 'broker down');
      await subject.store.outbox.markPublished([seqs[1]!]);
      expect((await other.outbox.claim(10, 60_000)).map((row) => row.seq)).toEqual([seqs[0]]);
      expect(await subject.store.outbox.backlog()).toMatchObject({ count: 3 });
    });

    it('lets another relay claim rows whose lease ran out (a relay that died mid-publish)', async () => {
      const seqs = await add(subject.store.outbox, 2);
      expect(await subject.store.outbox.claim(10, 50)).toHaveLength(2);
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect((await (await subject.another()).outbox.claim(10, 60_000)).map((row) => row.seq)).toEqual(seqs);
    });

    it('prunes published rows only, unless told the unpublished ones are owed to nobody', async () => {
      const { outbox } = subject.store;
      const [published] = await add(outbox, 2);
      await outbox.markPublished([published!]);
      const future = new Date(Date.now() + 60_000).toISOString();
      expect(await outbox.prune(future, false)).toBe(1);
      expect(await outbox.after(0, 10)).toHaveLength(1);
      expect(await outbox.prune(future, true)).toBe(1);
      expect(await outbox.after(0, 10)).toHaveLength(0);
    });
  });
}
