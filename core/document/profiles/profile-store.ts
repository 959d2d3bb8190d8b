/** SQLite repository of document profiles (table document_profiles); seeds the built-in profiles once. */
import type { Database } from 'better-sqlite3';
import type { StoredProfile } from '../../contracts/document-engine.js';
import { BUILT_IN_PROFILES, type DocumentProfile } from './profile.js';

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

/** Profiles persisted in SQLite. */
export class ProfileStore {
  constructor(private readonly db: Database) {
    // Built-ins are inserted only when absent, so an operator's edits survive restarts.
    const insert = db.prepare(
      'INSERT OR IGNORE INTO document_profiles (name, definition, built_in, updated_at) VALUES (?, ?, 1, ?)',
    );
    const now = new Date().toISOString();
    db.transaction(() => {
      for (const profile of BUILT_IN_PROFILES) insert.run(profile.name, JSON.stringify(profile), now);
    })();
  }

  /** Every profile, by name. */
  list(): StoredProfile[] {
    return (this.db.prepare('SELECT * FROM document_profiles ORDER BY name').all() as Row[]).map(fromRow);
  }

  /** One profile, or undefined. */
  get(name: string): StoredProfile | undefined {
    const row = this.db.prepare('SELECT * FROM document_profiles WHERE name = ?').get(name) as
      Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  /** Insert or replace a (validated) profile. */
  save(profile: DocumentProfile): StoredProfile {
    this.db
      .prepare(
        `INSERT INTO document_profiles (name, definition, built_in, updated_at) VALUES (?, ?, 0, ?)
         ON CONFLICT(name) DO UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at`,
      )
      .run(profile.name, JSON.stringify(profile), new Date().toISOString());
    return this.get(profile.name)!;
  }

  /** Delete a profile; false when it did not exist. */
  delete(name: string): boolean {
    return this.db.prepare('DELETE FROM document_profiles WHERE name = ?').run(name).changes > 0;
  }
}
