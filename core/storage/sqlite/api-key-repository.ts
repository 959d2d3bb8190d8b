import type { ApiKeyRecord, ApiKeyRepository } from '../../contracts/api-key-repository.js';
import { run, type Database } from './database.js';

interface Row {
  id: string;
  prefix: string;
  hash: Buffer;
  description: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function fromRow(row: Row): ApiKeyRecord {
  return {
    id: row.id,
    prefix: row.prefix,
    hash: row.hash,
    description: row.description,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** API keys in the `api_keys` table. */
export class SqliteApiKeyRepository implements ApiKeyRepository {
  private readonly byPrefix;

  constructor(private readonly db: Database) {
    // Read on every API request.
    this.byPrefix = db.prepare('SELECT * FROM api_keys WHERE prefix = ?');
  }

  insert(record: ApiKeyRecord): Promise<void> {
    return run(() => {
      this.db
        .prepare('INSERT INTO api_keys (id, prefix, hash, description, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(record.id, record.prefix, record.hash, record.description, record.createdAt);
    });
  }

  list(): Promise<ApiKeyRecord[]> {
    return run(() =>
      (this.db.prepare('SELECT * FROM api_keys ORDER BY created_at DESC').all() as Row[]).map(fromRow),
    );
  }

  findByPrefix(prefix: string): Promise<ApiKeyRecord | undefined> {
    return run(() => {
      const row = this.byPrefix.get(prefix) as Row | undefined;
      return row && fromRow(row);
    });
  }

  find(idOrPrefix: string): Promise<ApiKeyRecord | undefined> {
    return run(() => {
      const row = this.db
        .prepare('SELECT * FROM api_keys WHERE id = ? OR prefix = ?')
        .get(idOrPrefix, idOrPrefix) as Row | undefined;
      return row && fromRow(row);
    });
  }

  revoke(id: string, at: string): Promise<ApiKeyRecord | undefined> {
    return run(() => {
      this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
      const row = this.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as Row | undefined;
      return row && fromRow(row);
    });
  }

  touch(id: string, at: string): Promise<void> {
    return run(() => {
      this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id);
    });
  }
}
