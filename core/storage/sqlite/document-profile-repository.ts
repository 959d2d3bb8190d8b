import type { DocumentProfile, StoredProfile } from '../../contracts/document-engine.js';
import type { DocumentProfileRepository } from '../../contracts/document-repositories.js';
import { run, type Database } from './database.js';

interface Row {
  name: string;
  definition: string;
  built_in: number;
  updated_at: string;
}

function fromRow(row: Row): StoredProfile {
  const definition = JSON.parse(row.definition) as DocumentProfile;
  return { ...definition, name: row.name, built_in: row.built_in === 1, updated_at: row.updated_at };
}

/** Document profiles in `document_profiles` (JSON definitions). */
export class SqliteDocumentProfileRepository implements DocumentProfileRepository {
  constructor(private readonly db: Database) {}

  seed(profiles: readonly DocumentProfile[]): Promise<void> {
    return run(() => {
      const insert = this.db.prepare(
        'INSERT OR IGNORE INTO document_profiles (name, definition, built_in, updated_at) VALUES (?, ?, 1, ?)',
      );
      const now = new Date().toISOString();
      this.db
        .transaction(() => {
          for (const profile of profiles) insert.run(profile.name, JSON.stringify(profile), now);
        })
        .immediate();
    });
  }

  list(): Promise<StoredProfile[]> {
    return run(() =>
      (this.db.prepare('SELECT * FROM document_profiles ORDER BY name').all() as Row[]).map(fromRow),
    );
  }

  get(name: string): Promise<StoredProfile | undefined> {
    return run(() => this.read(name));
  }

  save(profile: DocumentProfile): Promise<StoredProfile> {
    return run(() =>
      this.db
        .transaction(() => {
          this.db
            .prepare(
              `INSERT INTO document_profiles (name, definition, built_in, updated_at) VALUES (?, ?, 0, ?)
             ON CONFLICT(name) DO UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at`,
            )
            .run(profile.name, JSON.stringify(profile), new Date().toISOString());
          return this.read(profile.name)!;
        })
        .immediate(),
    );
  }

  delete(name: string): Promise<boolean> {
    return run(() => this.db.prepare('DELETE FROM document_profiles WHERE name = ?').run(name).changes > 0);
  }

  private read(name: string): StoredProfile | undefined {
    const row = this.db.prepare('SELECT * FROM document_profiles WHERE name = ?').get(name) as
      Row | undefined;
    return row && fromRow(row);
  }
}
