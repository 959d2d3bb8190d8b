/**
 * SQLite repository of registered reference marks (table document_reference_marks): a small PNG preview for the
 * console and the precomputed ORB keypoints and descriptors as little-endian blobs.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { ReferenceMarkSummary } from '../../contracts/document-engine.js';
import type { MarkFeatures } from '../features/reference-mark/match-mark.js';

/** Version of the keypoint format and BRIEF pattern, recorded so a future change can re-extract from the preview. */
export const DESCRIPTOR_VERSION = 1;

/** A mark with its features, for matching. */
export interface ReferenceMark extends ReferenceMarkSummary {
  features: MarkFeatures;
  descriptorVersion: number;
}

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

function blob(view: Float32Array | Uint32Array): Buffer {
  return Buffer.from(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));
}

function copyBytes(buffer: Buffer): ArrayBuffer {
  // Copy into a fresh, aligned ArrayBuffer: SQLite's blob buffers may sit at any offset of a shared pool.
  const out = new ArrayBuffer(buffer.length);
  new Uint8Array(out).set(buffer);
  return out;
}

function summary(row: Row): ReferenceMarkSummary {
  return {
    id: row.id,
    name: row.name,
    width: row.width,
    height: row.height,
    keypoints: row.keypoint_count,
    created_at: row.created_at,
  };
}

/** Registered reference marks persisted in SQLite. */
export class MarkStore {
  constructor(private readonly db: Database) {}

  /** Every mark (without features), by name. */
  list(): ReferenceMarkSummary[] {
    const rows = this.db
      .prepare(
        'SELECT id, name, width, height, keypoint_count, created_at FROM document_reference_marks ORDER BY name',
      )
      .all() as Row[];
    return rows.map(summary);
  }

  /** Marks with features, optionally only those named. */
  load(names: readonly string[] = []): ReferenceMark[] {
    const rows = this.db.prepare('SELECT * FROM document_reference_marks ORDER BY name').all() as Row[];
    return rows
      .filter((row) => names.length === 0 || names.includes(row.name))
      .map((row) => {
        const features: MarkFeatures = {
          count: row.keypoint_count,
          width: row.width,
          height: row.height,
          points: new Float32Array(copyBytes(row.points)),
          scales: new Float32Array(copyBytes(row.scales)),
          descriptors: new Uint32Array(copyBytes(row.descriptors)),
        };
        if (row.template && row.template_width && row.template_height) {
          features.template = {
            data: new Uint8Array(copyBytes(row.template)),
            width: row.template_width,
            height: row.template_height,
          };
        }
        return { ...summary(row), descriptorVersion: row.descriptor_version, features };
      });
  }

  /** The PNG preview of a mark. */
  preview(id: string): Buffer | undefined {
    const row = this.db.prepare('SELECT preview_png FROM document_reference_marks WHERE id = ?').get(id) as
      Pick<Row, 'preview_png'> | undefined;
    return row?.preview_png;
  }

  /** True when a mark of that name exists. */
  hasName(name: string): boolean {
    return this.db.prepare('SELECT 1 FROM document_reference_marks WHERE name = ?').get(name) !== undefined;
  }

  /** Store a new mark and return its summary. */
  add(name: string, preview: Buffer, features: MarkFeatures): ReferenceMarkSummary {
    const id = `mark_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    const createdAt = new Date().toISOString();
    this.db
      .prepare(
        `INSERT INTO document_reference_marks (id, name, width, height, preview_png, keypoint_count, points, scales,
           descriptors, descriptor_version, created_at, template, template_width, template_height)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        name,
        features.width,
        features.height,
        preview,
        features.count,
        blob(features.points),
        blob(features.scales),
        blob(features.descriptors),
        DESCRIPTOR_VERSION,
        createdAt,
        features.template ? Buffer.from(features.template.data) : null,
        features.template?.width ?? null,
        features.template?.height ?? null,
      );
    return {
      id,
      name,
      width: features.width,
      height: features.height,
      keypoints: features.count,
      created_at: createdAt,
    };
  }

  /** Delete a mark; false when it did not exist. */
  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM document_reference_marks WHERE id = ?').run(id).changes > 0;
  }
}
