import type pg from 'pg';
import type {
  EnrollmentChange,
  EnrollmentMeta,
  EnrollmentRepository,
  EnrollmentRow,
  EnrollmentEffects,
  EnrollmentWrite,
  IndexMaterial,
  IndexRow,
  VectorHit,
} from '../../contracts/enrollment-repository.js';
import { query, transaction } from './connection.js';
import type { PostgresAuditRepository } from './audit-repository.js';
import type { Notifications } from './notifications.js';
import { takeNumbers } from './sequence-heads.js';
import { VECTOR_DIMS, VectorCache } from './vector-cache.js';
import { VectorFollower } from './vector-follower.js';

/** Channel announcing enrollment changes (payload: the change's seq). */
export const ENROLLMENT_CHANNEL = 'idv_enrollments';

const COLUMNS = `id, mobile, template, model_version AS "modelVersion", embedding_version AS "embeddingVersion", quality,
  minutiae_count AS "minutiaeCount", created_at AS "createdAt", updated_at AS "updatedAt"`;
const META_COLUMNS = COLUMNS.replace('template, ', '');
const INDEX_COLUMNS = 'id, mobile, model_version AS "modelVersion", cylinders';

/** Rows in the order of `ids`, missing ones skipped. */
function inOrder<T extends { id: number }>(ids: readonly number[], rows: T[]): T[] {
  const found = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => found.get(id) ?? []);
}

/** A vector's bytes as stored (little-endian float32); refuses another dimension before anything is written. */
function vectorBytes(vector: Float32Array): Buffer {
  if (vector.length !== VECTOR_DIMS) throw new Error(`Embedding must have ${VECTOR_DIMS} dimensions`);
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/**
 * Enrollments in `fingerprint_enrollments` (template, vector and cylinders in one row) and the latest change of each
 * in `fingerprint_changes`. Every write takes its change numbers from the feed's sequence head, whose row lock
 * serialises enrollment writes across replicas, so the feed's order is the commit order. The vector search runs on
 * an in-memory copy of every vector that follows the feed (VectorFollower).
 */
export class PostgresEnrollmentRepository implements EnrollmentRepository {
  private readonly vectors: VectorFollower;

  constructor(
    private readonly pool: pg.Pool,
    private readonly notifications: Notifications,
    private readonly audit: PostgresAuditRepository,
  ) {
    this.vectors = new VectorFollower(pool, new VectorCache());
  }

  async get(mobile: string): Promise<EnrollmentRow | undefined> {
    const [row] = await query<EnrollmentRow>(
      this.pool,
      `SELECT ${COLUMNS} FROM fingerprint_enrollments WHERE mobile = $1`,
      [mobile],
    );
    return row;
  }

  async getMany(ids: readonly number[]): Promise<EnrollmentRow[]> {
    if (ids.length === 0) return [];
    const rows = await query<EnrollmentRow>(
      this.pool,
      `SELECT ${COLUMNS} FROM fingerprint_enrollments WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    return inOrder(ids, rows);
  }

  async indexRows(ids: readonly number[]): Promise<IndexRow[]> {
    if (ids.length === 0) return [];
    const rows = await query<IndexRow>(
      this.pool,
      `SELECT ${INDEX_COLUMNS} FROM fingerprint_enrollments WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    return inOrder(ids, rows);
  }

  indexRowsAfter(modelVersion: string, afterId: number, limit: number): Promise<IndexRow[]> {
    return query<IndexRow>(
      this.pool,
      `SELECT ${INDEX_COLUMNS} FROM fingerprint_enrollments
       WHERE model_version = $1 AND cylinders IS NOT NULL AND id > $2 ORDER BY id LIMIT $3`,
      [modelVersion, afterId, limit],
    );
  }

  listUnindexed(embeddingVersion: number, afterId: number, limit: number): Promise<EnrollmentRow[]> {
    return query<EnrollmentRow>(
      this.pool,
      `SELECT ${COLUMNS} FROM fingerprint_enrollments
       WHERE (embedding_version <> $1 OR cylinders IS NULL) AND id > $2 ORDER BY id LIMIT $3`,
      [embeddingVersion, afterId, limit],
    );
  }

  async reindex(entries: readonly (IndexMaterial & { id: number })[]): Promise<void> {
    if (entries.length === 0) return;
    const vectors = entries.map((entry) => vectorBytes(entry.embedding));
    await transaction(this.pool, async (client) => {
      const first = await takeNumbers(client, 'fingerprint_changes', entries.length);
      const now = new Date().toISOString();
      for (const [i, entry] of entries.entries()) {
        const [row] = await query<{ mobile: string }>(
          client,
          `UPDATE fingerprint_enrollments SET cylinders = $1, embedding_version = $2, embedding = $3 WHERE id = $4
           RETURNING mobile`,
          [entry.cylinders, entry.embeddingVersion, vectors[i], entry.id],
        );
        // Deleted meanwhile: skipped (its number stays unused; followers only need increasing numbers).
        if (row)
          await recordChanges(
            client,
            [{ seq: first + i, id: entry.id, mobile: row.mobile, kind: 'saved' }],
            now,
          );
      }
      await notify(client, first + entries.length - 1);
    });
  }

  save(write: EnrollmentWrite, effects: EnrollmentEffects = {}): Promise<{ id: number; replaced: boolean }> {
    return transaction(this.pool, async (client) => {
      const [saved] = await this.saveIn(client, [write]);
      // In the same transaction: the enrollment and its request's audit row commit together or not at all.
      if (effects.audit) await this.audit.appendWithin(client, effects.audit(saved!));
      return saved!;
    });
  }

  async saveMany(writes: readonly EnrollmentWrite[]): Promise<{ id: number; replaced: boolean }[]> {
    if (writes.length === 0) return [];
    return transaction(this.pool, (client) => this.saveIn(client, writes));
  }

  /** Insert or replace `writes` with their index material and change-feed entries inside `client`'s transaction. */
  private async saveIn(
    client: pg.PoolClient,
    writes: readonly EnrollmentWrite[],
  ): Promise<{ id: number; replaced: boolean }[]> {
    const vectors = writes.map((write) => vectorBytes(write.embedding));
    // First: the head's lock makes concurrent writers of the same number wait for this one.
    const first = await takeNumbers(client, 'fingerprint_changes', writes.length);
    const now = new Date().toISOString();
    const existing = new Map(
      (
        await query<{ id: number; mobile: string }>(
          client,
          'SELECT id, mobile FROM fingerprint_enrollments WHERE mobile = ANY($1::text[])',
          [writes.map((w) => w.mobile)],
        )
      ).map((r) => [r.mobile, r.id]),
    );
    const results: { id: number; replaced: boolean }[] = [];
    for (const [i, w] of writes.entries()) {
      const known = existing.get(w.mobile);
      const values = [
        w.template,
        w.modelVersion,
        w.embeddingVersion,
        w.quality,
        w.minutiaeCount,
        vectors[i],
        w.cylinders,
        now,
      ];
      if (known !== undefined) {
        await query(
          client,
          `UPDATE fingerprint_enrollments SET template = $1, model_version = $2, embedding_version = $3, quality = $4,
               minutiae_count = $5, embedding = $6, cylinders = $7, updated_at = $8 WHERE id = $9`,
          [...values, known],
        );
        results.push({ id: known, replaced: true });
      } else {
        const [row] = await query<{ id: number }>(
          client,
          `INSERT INTO fingerprint_enrollments (template, model_version, embedding_version, quality, minutiae_count,
               embedding, cylinders, created_at, updated_at, mobile)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) RETURNING id`,
          [...values, w.mobile],
        );
        existing.set(w.mobile, row!.id);
        results.push({ id: row!.id, replaced: false });
      }
    }
    await recordChanges(
      client,
      writes.map((w, i) => ({
        seq: first + i,
        id: results[i]!.id,
        mobile: w.mobile,
        kind: 'saved' as const,
      })),
      now,
    );
    await notify(client, first + writes.length - 1);
    return results;
  }

  remove(mobile: string): Promise<number | undefined> {
    return transaction(this.pool, async (client) => {
      const seq = await takeNumbers(client, 'fingerprint_changes', 1);
      const [row] = await query<{ id: number }>(
        client,
        'DELETE FROM fingerprint_enrollments WHERE mobile = $1 RETURNING id',
        [mobile],
      );
      if (!row) return undefined;
      await recordChanges(client, [{ seq, id: row.id, mobile, kind: 'removed' }], new Date().toISOString());
      await notify(client, seq);
      return row.id;
    });
  }

  async count(): Promise<number> {
    // Every enrollment has a vector: the followed copy counts them without a scan of the table.
    if (this.vectors.loaded) return (await this.vectors.current()).size;
    const [row] = await query<{ n: number }>(this.pool, 'SELECT COUNT(*) AS n FROM fingerprint_enrollments');
    return row?.n ?? 0;
  }

  listOutdated(modelVersion: string): Promise<EnrollmentMeta[]> {
    return query<EnrollmentMeta>(
      this.pool,
      `SELECT ${META_COLUMNS} FROM fingerprint_enrollments WHERE model_version <> $1 ORDER BY updated_at, id`,
      [modelVersion],
    );
  }

  async nearest(embedding: Float32Array, k: number): Promise<VectorHit[]> {
    return (await this.vectors.current()).nearest(embedding, k);
  }

  changesAfter(seq: number, limit: number): Promise<EnrollmentChange[]> {
    return query<EnrollmentChange>(
      this.pool,
      'SELECT seq, enrollment_id AS id, mobile, kind FROM fingerprint_changes WHERE seq > $1 ORDER BY seq LIMIT $2',
      [seq, limit],
    );
  }

  async lastChangeSeq(): Promise<number> {
    const [row] = await query<{ seq: number | null }>(
      this.pool,
      'SELECT MAX(seq) AS seq FROM fingerprint_changes',
    );
    return row?.seq ?? 0;
  }

  /** Every notified change (this handle's too), and once whenever listening starts (changes before it may be lost). */
  watch(listener: () => void): () => void {
    return this.notifications.subscribe(ENROLLMENT_CHANNEL, () => {
      listener();
    });
  }
}

/** Make these the latest changes of their enrollments (one row per enrollment, moved to the end of the feed). */
async function recordChanges(
  client: pg.PoolClient,
  changes: readonly { seq: number; id: number; mobile: string; kind: 'saved' | 'removed' }[],
  at: string,
): Promise<void> {
  // One row per enrollment: a number saved twice in one batch keeps its last change.
  const latest = [...new Map(changes.map((c) => [c.id, c])).values()];
  await query(
    client,
    `INSERT INTO fingerprint_changes (seq, enrollment_id, mobile, kind, at)
     SELECT * , $5 FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[])
     ON CONFLICT (enrollment_id) DO UPDATE SET seq = excluded.seq, mobile = excluded.mobile, kind = excluded.kind,
       at = excluded.at`,
    [
      latest.map((c) => c.seq),
      latest.map((c) => c.id),
      latest.map((c) => c.mobile),
      latest.map((c) => c.kind),
      at,
    ],
  );
}

/** Wake the followers of other handles (delivered at commit). */
async function notify(client: pg.PoolClient, seq: number): Promise<void> {
  await query(client, 'SELECT pg_notify($1, $2)', [ENROLLMENT_CHANNEL, String(seq)]);
}
