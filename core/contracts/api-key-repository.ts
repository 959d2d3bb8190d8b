/** An API key as stored: never the secret, only its sha256. */
export interface ApiKeyRecord {
  id: string;
  /** Unique: finds the row of a presented key. */
  prefix: string;
  hash: Buffer;
  description: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** API keys. */
export interface ApiKeyRepository {
  insert(record: ApiKeyRecord): Promise<void>;
  /** Every key, newest first. */
  list(): Promise<ApiKeyRecord[]>;
  findByPrefix(prefix: string): Promise<ApiKeyRecord | undefined>;
  /** The key whose id or prefix this is. */
  find(idOrPrefix: string): Promise<ApiKeyRecord | undefined>;
  /** Mark revoked at `at` unless it already is (the first revocation time stays); the record after, or undefined. */
  revoke(id: string, at: string): Promise<ApiKeyRecord | undefined>;
  /** Record the key's last use. */
  touch(id: string, at: string): Promise<void>;
}
