import crypto from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { CoreError } from '../errors.js';
import { SettingsStore } from '../storage/settings.js';

/** Auth modes of SPEC 5: observe logs a missing or invalid key and goes on; enforce answers 401. */
export type AuthMode = 'observe' | 'enforce';

/** A key as listed: never the secret. */
export interface ApiKeyInfo {
  id: string;
  prefix: string;
  description: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Result of checking a presented key. */
export interface KeyCheck {
  outcome: 'valid' | 'missing' | 'invalid' | 'revoked';
  keyId: string | null;
}

interface KeyRow {
  id: string;
  prefix: string;
  hash: Buffer;
  description: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const KEY_PATTERN = /^idv_([a-z0-9]{10})_([A-Za-z0-9_-]{43})$/;
const DUMMY_HASH = crypto.createHash('sha256').update('no-such-key').digest();

/** Keys are 256-bit random secrets, so a single sha256 is a sufficient one-way hash for storage. */
function hashKey(key: string): Buffer {
  return crypto.createHash('sha256').update(key).digest();
}

/** API keys: issue (shown once), list, revoke, check in constant time; and the auth mode. */
export class ApiKeyService {
  private readonly settings: SettingsStore;
  private lastUsedWrites = new Map<string, number>();

  constructor(private readonly db: Database) {
    this.settings = new SettingsStore(db);
  }

  /** Issue a key for a described use case. The returned `key` is the only time the secret is visible. */
  create(description: string): ApiKeyInfo & { key: string } {
    const text = description.trim();
    if (text.length < 3 || text.length > 500) {
      throw new CoreError('FIELD_INVALID', 'The description must be 3 to 500 characters.', {
        field: 'description',
      });
    }
    const prefix = crypto.randomBytes(8).toString('hex').slice(0, 10);
    const secret = crypto.randomBytes(32).toString('base64url');
    const key = `idv_${prefix}_${secret}`;
    const id = crypto.randomUUID();
    const createdAt = new Date().toISOString();
    this.db
      .prepare('INSERT INTO api_keys (id, prefix, hash, description, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, prefix, hashKey(key), text, createdAt);
    return { id, prefix, description: text, createdAt, lastUsedAt: null, revokedAt: null, key };
  }

  /** Every key, newest first, without secrets. */
  list(): ApiKeyInfo[] {
    const rows = this.db.prepare('SELECT * FROM api_keys ORDER BY created_at DESC').all() as KeyRow[];
    return rows.map(toInfo);
  }

  /** Revoke a key by id (or prefix); revoked keys fail the check. */
  revoke(idOrPrefix: string): ApiKeyInfo {
    const row = this.db
      .prepare('SELECT * FROM api_keys WHERE id = ? OR prefix = ?')
      .get(idOrPrefix, idOrPrefix) as KeyRow | undefined;
    if (!row) throw new CoreError('NOT_FOUND', `No API key with id ${idOrPrefix}.`);
    if (!row.revoked_at) {
      this.db
        .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?')
        .run(new Date().toISOString(), row.id);
    }
    return toInfo(this.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(row.id) as KeyRow);
  }

  /** Check a presented key; the comparison is constant-time and runs even when the prefix is unknown. */
  check(presented: string | undefined): KeyCheck {
    if (!presented) return { outcome: 'missing', keyId: null };
    const match = KEY_PATTERN.exec(presented);
    const row = match
      ? (this.db.prepare('SELECT * FROM api_keys WHERE prefix = ?').get(match[1]) as KeyRow | undefined)
      : undefined;
    const equal = crypto.timingSafeEqual(row ? row.hash : DUMMY_HASH, hashKey(presented));
    if (!row || !equal) return { outcome: 'invalid', keyId: null };
    if (row.revoked_at) return { outcome: 'revoked', keyId: row.id };
    this.touch(row.id);
    return { outcome: 'valid', keyId: row.id };
  }

  /** Current auth mode (default observe, SPEC 5's current behaviour). */
  mode(): AuthMode {
    return this.settings.get<AuthMode>('auth.mode', 'observe');
  }

  setMode(mode: AuthMode): void {
    if (mode !== 'observe' && mode !== 'enforce') {
      throw new CoreError('FIELD_INVALID', 'The auth mode must be observe or enforce.', { field: 'mode' });
    }
    this.settings.set('auth.mode', mode);
  }

  /** Record last use, at most once a second per key so a busy key does not write on every request. */
  private touch(id: string): void {
    const now = Date.now();
    if ((this.lastUsedWrites.get(id) ?? 0) > now - 1000) return;
    this.lastUsedWrites.set(id, now);
    this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(new Date(now).toISOString(), id);
  }
}

function toInfo(row: KeyRow): ApiKeyInfo {
  return {
    id: row.id,
    prefix: row.prefix,
    description: row.description,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
