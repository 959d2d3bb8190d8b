import type { ApiKeyRecord, ApiKeyRepository } from '../../contracts/api-key-repository.js';
import { run, type Database } from './database.js';
import { apiKeyOf, type ApiKeyRowData } from '../rows.js';

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
      (this.db.prepare('SELECT * FROM api_keys ORDER BY created_at DESC').all() as ApiKeyRowData[]).map(
        apiKeyOf,
      ),
    );
  }

  findByPrefix(prefix: string): Promise<ApiKeyRecord | undefined> {
    return run(() => {
      const row = this.byPrefix.get(prefix) as ApiKeyRowData | undefined;
      return row && apiKeyOf(row);
    });
  }

  find(idOrPrefix: string): Promise<ApiKeyRecord | undefined> {
    return run(() => {
      const row = this.db
        .prepare('SELECT * FROM api_keys WHERE id = ? OR prefix = ?')
        .get(idOrPrefix, idOrPrefix) as ApiKeyRowData | undefined;
      return row && apiKeyOf(row);
    });
  }

  revoke(id: string, at: string): Promise<ApiKeyRecord | undefined> {
    return run(() => {
      this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
      const row = this.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as ApiKeyRowData | undefined;
      return row && apiKeyOf(row);
    });
  }

  touch(id: string, at: string): Promise<void> {
    return run(() => {
      this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id);
    });
  }
}
