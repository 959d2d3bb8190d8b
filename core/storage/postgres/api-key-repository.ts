import type pg from 'pg';
import type { ApiKeyRecord, ApiKeyRepository } from '../../contracts/api-key-repository.js';
import { query } from './connection.js';
import { apiKeyOf, type ApiKeyRowData } from '../rows.js';

/** API keys in the `api_keys` table. */
export class PostgresApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly pool: pg.Pool) {}

  async insert(record: ApiKeyRecord): Promise<void> {
    await query(
      this.pool,
      'INSERT INTO api_keys (id, prefix, hash, description, created_at) VALUES ($1, $2, $3, $4, $5)',
      [record.id, record.prefix, record.hash, record.description, record.createdAt],
    );
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await query<ApiKeyRowData>(this.pool, 'SELECT * FROM api_keys ORDER BY created_at DESC')).map(
      apiKeyOf,
    );
  }

  async findByPrefix(prefix: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await query<ApiKeyRowData>(this.pool, 'SELECT * FROM api_keys WHERE prefix = $1', [prefix]);
    return row && apiKeyOf(row);
  }

  async find(idOrPrefix: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await query<ApiKeyRowData>(
      this.pool,
      'SELECT * FROM api_keys WHERE id = $1 OR prefix = $1',
      [idOrPrefix],
    );
    return row && apiKeyOf(row);
  }

  async revoke(id: string, at: string): Promise<ApiKeyRecord | undefined> {
    // COALESCE keeps the first revocation time in one statement.
    const [row] = await query<ApiKeyRowData>(
      this.pool,
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING *',
      [id, at],
    );
    return row && apiKeyOf(row);
  }

  async touch(id: string, at: string): Promise<void> {
    await query(this.pool, 'UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, at]);
  }
}
