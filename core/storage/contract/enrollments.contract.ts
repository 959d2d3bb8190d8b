import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EnrollmentWrite } from '../../contracts/enrollment-repository.js';
import { createPrng } from '../../math/prng.js';
import { auditFields } from './audit.contract.js';
import type { StoreFactory, StoreUnderTest } from './harness.js';

/** Dimensions of the 1:N vector every adapter stores. */
const DIMS = 256;

/** A unit vector of seed `n` (distinct seeds are far apart in 256 dimensions). */
function vector(n: number): Float32Array {
  const prng = createPrng(n);
  const v = Float32Array.from({ length: DIMS }, () => prng.gauss());
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function write(mobile: string, n: number, modelVersion = 'model-1'): EnrollmentWrite {
  return {
    mobile,
    template: Buffer.from(`sealed template ${n}`),
    modelVersion,
    embeddingVersion: 3,
    quality: 40 + n,
    minutiaeCount: 30 + n,
    embedding: vector(n),
    cylinders: Buffer.from(`sealed cylinders ${n}`),
  };
}

const mobile = (i: number): string => `+4479110000${String(i).padStart(2, '0')}`;

/** EnrollmentRepository: rows and index material in step, the vector search, bulk paths, the change feed. */
export function enrollmentsContract(factory: StoreFactory): void {
  describe('enrollment repository', () => {
    let subject: StoreUnderTest;
    beforeEach(async () => {
      subject = await factory();
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it('saves, replaces under the same id, reads back and removes with the vector', async () => {
      const { enrollments } = subject.store;
      const first = await enrollments.save(write(mobile(1), 1));
      expect(first.replaced).toBe(false);
      const again = await enrollments.save({ ...write(mobile(1), 2), modelVersion: 'model-2' });
      expect(again).toEqual({ id: first.id, replaced: true });
      const row = await enrollments.get(mobile(1));
      expect(row).toMatchObject({ id: first.id, mobile: mobile(1), modelVersion: 'model-2', quality: 42 });
      expect(row!.template.toString()).toBe('sealed template 2');
      expect((await enrollments.nearest(vector(2), 1))[0]).toMatchObject({ id: first.id });
      expect((await enrollments.nearest(vector(2), 1))[0]!.distance).toBeLessThan(1e-4);
      expect(await enrollments.remove(mobile(1))).toBe(first.id);
      expect(await enrollments.remove(mobile(1))).toBeUndefined();
      expect(await enrollments.get(mobile(1))).toBeUndefined();
      expect(await enrollments.nearest(vector(2), 5)).toEqual([]);
      expect(await enrollments.count()).toBe(0);
    });

    it('writes nothing when the index material is refused', async () => {
      const { enrollments } = subject.store;
      await expect(
        enrollments.save({ ...write(mobile(1), 1), embedding: new Float32Array(3) }),
      ).rejects.toThrow();
      expect(await enrollments.count()).toBe(0);
      expect(await enrollments.lastChangeSeq()).toBe(0);
    });

    it('commits the audit row with its enrollment, chained, and neither when either fails', async () => {
      const { enrollments, audit } = subject.store;
      const seen: { id: number; replaced: boolean }[] = [];
      const row = (saved: { id: number; replaced: boolean }) => {
        seen.push(saved);
        return {
          ...auditFields(1),
          event: saved.replaced ? 'fingerprint.reenrolled' : 'fingerprint.enrolled',
        };
      };
      await audit.append(auditFields(0));
      const first = await enrollments.save(write(mobile(1), 1), { audit: row });
      const again = await enrollments.save(write(mobile(1), 2), { audit: row });
      expect(seen).toEqual([first, again]);
      expect(again).toEqual({ id: first.id, replaced: true });
      const rows = await audit.range(0, 10);
      expect(rows.map((r) => r.event)).toEqual([null, 'fingerprint.enrolled', 'fingerprint.reenrolled']);
      expect(rows[1]!.prevHash).toBe(rows[0]!.hash);
      // A row the store refuses (no method) leaves no enrollment behind; a refused enrollment leaves no row.
      const broken = { ...auditFields(2), method: null as unknown as string };
      await expect(enrollments.save(write(mobile(2), 3), { audit: () => broken })).rejects.toThrow();
      await expect(
        enrollments.save({ ...write(mobile(3), 4), embedding: new Float32Array(3) }, { audit: row }),
      ).rejects.toThrow();
      expect(await enrollments.get(mobile(2))).toBeUndefined();
      expect(await enrollments.get(mobile(3))).toBeUndefined();
      expect(await enrollments.count()).toBe(1);
      expect(await audit.count()).toBe(3);
    });

    it('reads candidates in the order asked and finds the nearest vectors first', async () => {
      const { enrollments } = subject.store;
      const saved = await enrollments.saveMany(Array.from({ length: 40 }, (_, i) => write(mobile(i), i)));
      const ids = saved.map((s) => s.id);
      expect(new Set(ids).size).toBe(40);
      const asked = [ids[7]!, 999_999, ids[3]!, ids[20]!];
      expect((await enrollments.getMany(asked)).map((r) => r.mobile)).toEqual([
        mobile(7),
        mobile(3),
        mobile(20),
      ]);
      expect((await enrollments.indexRows(asked)).map((r) => r.id)).toEqual([ids[7], ids[3], ids[20]]);
      expect((await enrollments.indexRows([ids[5]!]))[0]!.cylinders?.toString()).toBe('sealed cylinders 5');
      const hits = await enrollments.nearest(vector(12), 10);
      expect(hits[0]!.id).toBe(ids[12]);
      expect(hits).toHaveLength(10);
      expect(hits.map((h) => h.distance)).toEqual([...hits.map((h) => h.distance)].sort((a, b) => a - b));
      expect(await enrollments.count()).toBe(40);
    });

    it('pages index rows by model version and rebuilds index material of another version', async () => {
      const { enrollments } = subject.store;
      for (let i = 0; i < 6; i++) await enrollments.save(write(mobile(i), i, i < 4 ? 'model-1' : 'model-0'));
      const page = await enrollments.indexRowsAfter('model-1', 0, 3);
      expect(page.map((r) => r.mobile)).toEqual([mobile(0), mobile(1), mobile(2)]);
      expect((await enrollments.indexRowsAfter('model-1', page.at(-1)!.id, 3)).map((r) => r.mobile)).toEqual([
        mobile(3),
      ]);
      expect((await enrollments.listOutdated('model-1')).map((r) => r.mobile)).toEqual([
        mobile(4),
        mobile(5),
      ]);
      const stale = await enrollments.listUnindexed(4, 0, 100);
      expect(stale).toHaveLength(6);
      await enrollments.reindex(
        stale.slice(0, 4).map((row, i) => ({
          id: row.id,
          embedding: vector(100 + i),
          cylinders: Buffer.from(`cylinders v4 ${i}`),
          embeddingVersion: 4,
        })),
      );
      expect((await enrollments.listUnindexed(4, 0, 100)).map((r) => r.mobile)).toEqual([
        mobile(4),
        mobile(5),
      ]);
      expect((await enrollments.nearest(vector(101), 1))[0]!.id).toBe(stale[1]!.id);
      expect((await enrollments.indexRows([stale[1]!.id]))[0]!.cylinders?.toString()).toBe('cylinders v4 1');
    });

    it('feeds the latest change of each enrollment by sequence', async () => {
      const { enrollments } = subject.store;
      const start = await enrollments.lastChangeSeq();
      const a = await enrollments.save(write(mobile(1), 1));
      const b = await enrollments.save(write(mobile(2), 2));
      await enrollments.save(write(mobile(1), 3));
      await enrollments.remove(mobile(2));
      const changes = await (await subject.another()).enrollments.changesAfter(start, 10);
      expect(changes.map((c) => [c.id, c.mobile, c.kind])).toEqual([
        [a.id, mobile(1), 'saved'],
        [b.id, mobile(2), 'removed'],
      ]);
      expect(changes[0]!.seq).toBeLessThan(changes[1]!.seq);
      expect(await enrollments.lastChangeSeq()).toBe(changes[1]!.seq);
      expect(await enrollments.changesAfter(changes[0]!.seq, 10)).toHaveLength(1);
    });
  });
}
