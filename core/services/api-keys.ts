import crypto from 'node:crypto';
import type { ApiKeyRecord, ApiKeyRepository } from '../contracts/api-key-repository.js';
import { CoreError } from '../errors.js';
import type { SettingValue } from '../settings/schema.js';
import type { Settings } from '../settings/settings.js';

/** Auth modes of SPEC 5: observe logs a missing or invalid key and goes on; enforce answers 401. */
export type AuthMode = SettingValue<'auth.mode'>;

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

const KEY_PATTERN = /^idv_([a-z0-9]{10})_([A-Za-z0-9_-]{43})$/;
const DUMMY_HASH = crypto.createHash('sha256').update('no-such-key').digest();

/** Keys are 256-bit random secrets, so a single sha256 is a sufficient one-way hash for storage. */
function hashKey(key: string): Buffer {
  return crypto.createHash('sha256').update(key).digest();
}

function toInfo(record: ApiKeyRecord): ApiKeyInfo {
  return {
    id: record.id,
    prefix: record.prefix,
    description: record.description,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
    revokedAt: record.revokedAt,
  };
}

/** API keys: issue (shown once), list, revoke, check in constant time; and the auth mode. */
export class ApiKeyService {
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly settings: Settings,
  ) {}

  /** Issue a key for a described use case. The returned `key` is the only time the secret is visible. */
  async create(description: string): Promise<ApiKeyInfo & { key: string }> {
    const text = description.trim();
    if (text.length < 3 || text.length > 500) {
      throw new CoreError('FIELD_INVALID', 'The description must be 3 to 500 characters.', {
        field: 'description',
      });
    }
    const prefix = crypto.randomBytes(8).toString('hex').slice(0, 10);
    const secret = crypto.randomBytes(32).toString('base64url');
    const key = `idv_${prefix}_${secret}`;
    const record: ApiKeyRecord = {
      id: crypto.randomUUID(),
      prefix,
      hash: hashKey(key),
      description: text,
      createdAt: new Date().toISOString(),
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.keys.insert(record);
    return { ...toInfo(record), key };
  }

  /** Every key, newest first, without secrets. */
  async list(): Promise<ApiKeyInfo[]> {
    return (await this.keys.list()).map(toInfo);
  }

  /** Revoke a key by id (or prefix); revoked keys fail the check. */
  async revoke(idOrPrefix: string): Promise<ApiKeyInfo> {
    const found = await this.keys.find(idOrPrefix);
    const revoked = found && (await this.keys.revoke(found.id, new Date().toISOString()));
    if (!revoked) throw new CoreError('NOT_FOUND', `No API key with id ${idOrPrefix}.`);
    return toInfo(revoked);
  }

  /** Check a presented key; the comparison is constant-time and runs even when the prefix is unknown. */
  async check(presented: string | undefined): Promise<KeyCheck> {
    if (!presented) return { outcome: 'missing', keyId: null };
    const match = KEY_PATTERN.exec(presented);
    const record = match ? await this.keys.findByPrefix(match[1]!) : undefined;
    const equal = crypto.timingSafeEqual(record ? record.hash : DUMMY_HASH, hashKey(presented));
    if (!record || !equal) return { outcome: 'invalid', keyId: null };
    if (record.revokedAt) return { outcome: 'revoked', keyId: record.id };
    await this.touch(record.id);
    return { outcome: 'valid', keyId: record.id };
  }

  /** Current auth mode (default observe, SPEC 5's current behaviour). */
  mode(): AuthMode {
    return this.settings.get('auth.mode');
  }

  async setMode(mode: AuthMode): Promise<void> {
    if (mode !== 'observe' && mode !== 'enforce') {
      throw new CoreError('FIELD_INVALID', 'The auth mode must be observe or enforce.', { field: 'mode' });
    }
    await this.settings.set('auth.mode', mode);
  }

  /** Record last use, at most once a second per key so a busy key does not write on every request. */
  private async touch(id: string): Promise<void> {
    const now = Date.now();
    if ((this.lastUsedWrites.get(id) ?? 0) > now - 1000) return;
    this.lastUsedWrites.set(id, now);
    await this.keys.touch(id, new Date(now).toISOString());
  }
}
