import type { ReferenceMarkSummary } from '../../contracts/document-engine.js';
import type {
  NewReferenceMark,
  ReferenceMark,
  ReferenceMarkRepository,
  StoredMarkFeatures,
} from '../../contracts/document-repositories.js';
import { run, type Database } from './database.js';

interface Row {
  id: string;
  name: string;
  width: number;
  height: number;
  preview_png: Buffer;
  keypoint_count: number;
  points: Buffer;
  scales: Buffer;
  descriptors: Buffer;
  descriptor_version: number;
  created_at: string;
  template: Buffer | null;
  template_width: number | null;
  template_height: number | null;
}

/** A typed array's bytes as a blob (little-endian, as the machine writes them). */
function blob(view: Float32Array | Uint32Array): Buffer {
  return Buffer.from(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));
}

function copyBytes(buffer: Buffer): ArrayBuffer {
  // Copy into a fresh, aligned ArrayBuffer: SQLite's blob buffers may sit at any offset of a shared pool.
  const out = new ArrayBuffer(buffer.length);
  new Uint8Array(out).set(buffer);
  return out;
}

function summary(row: Pick<Row, 'id' | 'name' | 'width' | 'height' | 'keypoint_count' | 'created_at'>) {
  return {
    id: row.id,
    name: row.name,
    width: row.width,
    height: row.height,
    keypoints: row.keypoint_count,
    created_at: row.created_at,
  } satisfies ReferenceMarkSummary;
}

function features(row: Row): StoredMarkFeatures {
  const stored: StoredMarkFeatures = {
    count: row.keypoint_count,
    width: row.width,
    height: row.height,
    points: new Float32Array(copyBytes(row.points)),
    scales: new Float32Array(copyBytes(row.scales)),
    descriptors: new Uint32Array(copyBytes(row.descriptors)),
  };
  if (row.template && row.template_width && row.template_height) {
    stored.template = {
      data: new Uint8Array(copyBytes(row.template)),
      width: row.template_width,
      height: row.template_height,
    };
  }
  return stored;
}

/** Registered reference marks in `document_reference_marks`: PNG preview and ORB features as blobs. */
export class SqliteReferenceMarkRepository implements ReferenceMarkRepository {
  constructor(private readonly db: Database) {}

  list(): Promise<ReferenceMarkSummary[]> {
    return run(() =>
      (
        this.db
          .prepare(
            'SELECT id, name, width, height, keypoint_count, created_at FROM document_reference_marks ORDER BY name',
          )
          .all() as Row[]
      ).map(summary),
    );
  }

  load(names: readonly string[]): Promise<ReferenceMark[]> {
    return run(() =>
      (this.db.prepare('SELECT * FROM document_reference_marks ORDER BY name').all() as Row[])
        .filter((row) => names.length === 0 || names.includes(row.name))
        .map((row) => ({
          ...summary(row),
          descriptorVersion: row.descriptor_version,
          features: features(row),
        })),
    );
  }

  preview(id: string): Promise<Buffer | undefined> {
    return run(
      () =>
        (
          this.db.prepare('SELECT preview_png FROM document_reference_marks WHERE id = ?').get(id) as
            Pick<Row, 'preview_png'> | undefined
        )?.preview_png,
    );
  }

  hasName(name: string): Promise<boolean> {
    return run(
      () => this.db.prepare('SELECT 1 FROM document_reference_marks WHERE name = ?').get(name) !== undefined,
    );
  }

  add(mark: NewReferenceMark): Promise<ReferenceMarkSummary | undefined> {
    const { features: f } = mark;
    return run(() => {
      // OR IGNORE on the unique name: a concurrent registration of the same name stores nothing.
      const info = this.db
        .prepare(
          `INSERT OR IGNORE INTO document_reference_marks (id, name, width, height, preview_png, keypoint_count, points,
             scales, descriptors, descriptor_version, created_at, template, template_width, template_height)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          mark.id,
          mark.name,
          f.width,
          f.height,
          mark.preview,
          f.count,
          blob(f.points),
          blob(f.scales),
          blob(f.descriptors),
          mark.descriptorVersion,
          mark.createdAt,
          f.template ? Buffer.from(f.template.data) : null,
          f.template?.width ?? null,
          f.template?.height ?? null,
        );
      if (info.changes === 0) return undefined;
      return summary({
        id: mark.id,
        name: mark.name,
        width: f.width,
        height: f.height,
        keypoint_count: f.count,
        created_at: mark.createdAt,
      });
    });
  }

  delete(id: string): Promise<boolean> {
    return run(
      () => this.db.prepare('DELETE FROM document_reference_marks WHERE id = ?').run(id).changes > 0,
    );
  }
}
