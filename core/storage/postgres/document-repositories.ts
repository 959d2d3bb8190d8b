import type pg from 'pg';
import type {
  DocumentProfile,
  ReferenceMarkSummary,
  StoredProfile,
} from '../../contracts/document-engine.js';
import type {
  DocumentProfileRepository,
  NewReferenceMark,
  ReferenceMark,
  ReferenceMarkRepository,
} from '../../contracts/document-repositories.js';
import { query, transaction } from './connection.js';
import {
  referenceMarkFeaturesOf,
  referenceMarkSummaryOf,
  newReferenceMarkSummary,
  referenceMarkValues,
  type ReferenceMarkRowData,
} from '../rows.js';

interface ProfileRow {
  name: string;
  definition: string;
  built_in: boolean;
  updated_at: string;
}

function profileOf(row: ProfileRow): StoredProfile {
  const definition = JSON.parse(row.definition) as DocumentProfile;
  return { ...definition, name: row.name, built_in: row.built_in, updated_at: row.updated_at };
}

/** Document profiles in `document_profiles` (JSON definitions). */
export class PostgresDocumentProfileRepository implements DocumentProfileRepository {
  constructor(private readonly pool: pg.Pool) {}

  async seed(profiles: readonly DocumentProfile[]): Promise<void> {
    const now = new Date().toISOString();
    await transaction(this.pool, async (client) => {
      for (const profile of profiles) {
        await query(
          client,
          `INSERT INTO document_profiles (name, definition, built_in, updated_at) VALUES ($1, $2, TRUE, $3)
           ON CONFLICT (name) DO NOTHING`,
          [profile.name, JSON.stringify(profile), now],
        );
      }
    });
  }

  async list(): Promise<StoredProfile[]> {
    return (await query<ProfileRow>(this.pool, 'SELECT * FROM document_profiles ORDER BY name')).map(
      profileOf,
    );
  }

  async get(name: string): Promise<StoredProfile | undefined> {
    const [row] = await query<ProfileRow>(this.pool, 'SELECT * FROM document_profiles WHERE name = $1', [
      name,
    ]);
    return row && profileOf(row);
  }

  async save(profile: DocumentProfile): Promise<StoredProfile> {
    const [row] = await query<ProfileRow>(
      this.pool,
      `INSERT INTO document_profiles (name, definition, built_in, updated_at) VALUES ($1, $2, FALSE, $3)
       ON CONFLICT (name) DO UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at
       RETURNING *`,
      [profile.name, JSON.stringify(profile), new Date().toISOString()],
    );
    return profileOf(row!);
  }

  async delete(name: string): Promise<boolean> {
    return (
      (await query(this.pool, 'DELETE FROM document_profiles WHERE name = $1 RETURNING name', [name]))
        .length > 0
    );
  }
}

/** Registered reference marks in `document_reference_marks`: PNG preview and ORB features as bytea. */
export class PostgresReferenceMarkRepository implements ReferenceMarkRepository {
  constructor(private readonly pool: pg.Pool) {}

  async list(): Promise<ReferenceMarkSummary[]> {
    return (
      await query<ReferenceMarkRowData>(
        this.pool,
        'SELECT id, name, width, height, keypoint_count, created_at FROM document_reference_marks ORDER BY name',
      )
    ).map(referenceMarkSummaryOf);
  }

  async load(names: readonly string[]): Promise<ReferenceMark[]> {
    const rows = await query<ReferenceMarkRowData>(
      this.pool,
      names.length === 0
        ? 'SELECT * FROM document_reference_marks ORDER BY name'
        : 'SELECT * FROM document_reference_marks WHERE name = ANY($1::text[]) ORDER BY name',
      names.length === 0 ? [] : [names],
    );
    return rows.map((row) => ({
      ...referenceMarkSummaryOf(row),
      descriptorVersion: row.descriptor_version,
      features: referenceMarkFeaturesOf(row),
    }));
  }

  async preview(id: string): Promise<Buffer | undefined> {
    const [row] = await query<Pick<ReferenceMarkRowData, 'preview_png'>>(
      this.pool,
      'SELECT preview_png FROM document_reference_marks WHERE id = $1',
      [id],
    );
    return row?.preview_png;
  }

  async hasName(name: string): Promise<boolean> {
    return (
      (await query(this.pool, 'SELECT 1 FROM document_reference_marks WHERE name = $1', [name])).length > 0
    );
  }

  async add(mark: NewReferenceMark): Promise<ReferenceMarkSummary | undefined> {
    // DO NOTHING on the unique name: a concurrent registration of the same name stores nothing.
    const inserted = await query(
      this.pool,
      `INSERT INTO document_reference_marks (id, name, width, height, preview_png, keypoint_count, points, scales,
         descriptors, descriptor_version, created_at, template, template_width, template_height)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT DO NOTHING RETURNING id`,
      referenceMarkValues(mark),
    );
    if (inserted.length === 0) return undefined;
    return newReferenceMarkSummary(mark);
  }

  async delete(id: string): Promise<boolean> {
    return (
      (await query(this.pool, 'DELETE FROM document_reference_marks WHERE id = $1 RETURNING id', [id]))
        .length > 0
    );
  }
}
