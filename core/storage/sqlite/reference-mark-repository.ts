import type { ReferenceMarkSummary } from '../../contracts/document-engine.js';
import type {
  NewReferenceMark,
  ReferenceMark,
  ReferenceMarkRepository,
} from '../../contracts/document-repositories.js';
import { run, type Database } from './database.js';
import {
  referenceMarkFeaturesOf,
  referenceMarkSummaryOf,
  newReferenceMarkSummary,
  referenceMarkValues,
  type ReferenceMarkRowData,
} from '../rows.js';

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
          .all() as ReferenceMarkRowData[]
      ).map(referenceMarkSummaryOf),
    );
  }

  load(names: readonly string[]): Promise<ReferenceMark[]> {
    return run(() =>
      (
        this.db
          .prepare('SELECT * FROM document_reference_marks ORDER BY name')
          .all() as ReferenceMarkRowData[]
      )
        .filter((row) => names.length === 0 || names.includes(row.name))
        .map((row) => ({
          ...referenceMarkSummaryOf(row),
          descriptorVersion: row.descriptor_version,
          features: referenceMarkFeaturesOf(row),
        })),
    );
  }

  preview(id: string): Promise<Buffer | undefined> {
    return run(
      () =>
        (
          this.db.prepare('SELECT preview_png FROM document_reference_marks WHERE id = ?').get(id) as
            Pick<ReferenceMarkRowData, 'preview_png'> | undefined
        )?.preview_png,
    );
  }

  hasName(name: string): Promise<boolean> {
    return run(
      () => this.db.prepare('SELECT 1 FROM document_reference_marks WHERE name = ?').get(name) !== undefined,
    );
  }

  add(mark: NewReferenceMark): Promise<ReferenceMarkSummary | undefined> {
    return run(() => {
      // OR IGNORE on the unique name: a concurrent registration of the same name stores nothing.
      const info = this.db
        .prepare(
          `INSERT OR IGNORE INTO document_reference_marks (id, name, width, height, preview_png, keypoint_count, points,
             scales, descriptors, descriptor_version, created_at, template, template_width, template_height)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(...referenceMarkValues(mark));
      if (info.changes === 0) return undefined;
      return newReferenceMarkSummary(mark);
    });
  }

  delete(id: string): Promise<boolean> {
    return run(
      () => this.db.prepare('DELETE FROM document_reference_marks WHERE id = ?').run(id).changes > 0,
    );
  }
}
