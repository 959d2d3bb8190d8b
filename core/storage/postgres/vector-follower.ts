import type pg from 'pg';
import { query } from './connection.js';
import type { VectorCache } from './vector-cache.js';

/** Rows read per page while loading or catching up. */
const PAGE = 2000;

/**
 * Keeps a VectorCache equal to the database: loads every vector once (on first use), then, before each use, applies
 * the change feed since the last sequence it saw (one indexed query when nothing changed). A search therefore sees
 * every enrollment committed before it started, on any replica.
 */
export class VectorFollower {
  private cursor = 0;
  private loading: Promise<void> | undefined;
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  /** True once the first load finished. */
  loaded = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly cache: VectorCache,
  ) {}

  /** The cache, loaded and caught up with every change committed before this call. */
  async current(): Promise<VectorCache> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    await this.loading;
    await this.catchUp();
    return this.cache;
  }

  /** Read every vector, by id; the feed position is taken first, so changes made meanwhile are applied after. */
  private async load(): Promise<void> {
    this.cache.clear();
    const [head] = await query<{ seq: number | null }>(
      this.pool,
      'SELECT MAX(seq) AS seq FROM fingerprint_changes',
    );
    this.cursor = head?.seq ?? 0;
    for (let after = 0; ;) {
      const rows = await query<{ id: number; embedding: Buffer }>(
        this.pool,
        'SELECT id, embedding FROM fingerprint_enrollments WHERE id > $1 ORDER BY id LIMIT $2',
        [after, PAGE],
      );
      for (const row of rows) this.cache.put(row.id, row.embedding);
      if (rows.length < PAGE) break;
      after = rows.at(-1)!.id;
    }
    this.loaded = true;
  }

  /**
   * Apply changes after the cursor. Calls made while one runs share the next run (which starts after theirs were
   * made), so a burst of searches costs one query, not one each.
   */
  private catchUp(): Promise<void> {
    if (!this.queued) {
      const next = this.running
        .catch(() => undefined)
        .then(() => {
          this.queued = undefined;
          return this.applyChanges();
        });
      this.queued = next;
      this.running = next;
    }
    return this.queued;
  }

  private async applyChanges(): Promise<void> {
    for (;;) {
      // The row's state now, not the change's: a later change of the same enrollment is read here already.
      const rows = await query<{ seq: number; id: number; embedding: Buffer | null }>(
        this.pool,
        `SELECT c.seq, c.enrollment_id AS id, e.embedding FROM fingerprint_changes c
         LEFT JOIN fingerprint_enrollments e ON e.id = c.enrollment_id
         WHERE c.seq > $1 ORDER BY c.seq LIMIT $2`,
        [this.cursor, PAGE],
      );
      for (const row of rows) {
        if (row.embedding) this.cache.put(row.id, row.embedding);
        else this.cache.delete(row.id);
        this.cursor = row.seq;
      }
      if (rows.length < PAGE) return;
    }
  }
}
