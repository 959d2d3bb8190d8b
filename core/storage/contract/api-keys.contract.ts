import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../contracts/api-key-repository.js';
import type { StoreFactory, StoreUnderTest } from './harness.js';

function key(n: number, createdAt: string): ApiKeyRecord {
  return {
    id: `id-${n}`,
    prefix: `prefix${String(n).padStart(4, '0')}`,
    hash: Buffer.alloc(32, n),
    description: `use case ${n}`,
    createdAt,
    lastUsedAt: null,
    revokedAt: null,
  };
}

/** ApiKeyRepository: insert, find by id or prefix, list newest first, revoke once, touch. */
export function apiKeysContract(factory: StoreFactory): void {
  describe('API key repository', () => {
    let subject: StoreUnderTest;
    beforeEach(async () => {
      subject = await factory();
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it('finds keys by prefix, id or prefix, and lists them newest first', async () => {
      const { apiKeys } = subject.store;
      await apiKeys.insert(key(1, '2026-01-01T00:00:00.000Z'));
      await apiKeys.insert(key(2, '2026-02-01T00:00:00.000Z'));
      expect(await apiKeys.findByPrefix('prefix0001')).toEqual(key(1, '2026-01-01T00:00:00.000Z'));
      expect(await apiKeys.findByPrefix('prefix9999')).toBeUndefined();
      expect((await apiKeys.find('id-2'))?.prefix).toBe('prefix0002');
      expect((await apiKeys.find('prefix0002'))?.id).toBe('id-2');
      expect((await apiKeys.list()).map((k) => k.id)).toEqual(['id-2', 'id-1']);
      await expect(
        apiKeys.insert({ ...key(3, '2026-03-01T00:00:00.000Z'), prefix: 'prefix0001' }),
      ).rejects.toThrow();
    });

    it('keeps the first revocation time and records the last use', async () => {
      const { apiKeys } = subject.store;
      await apiKeys.insert(key(1, '2026-01-01T00:00:00.000Z'));
      await apiKeys.touch('id-1', '2026-01-02T00:00:00.000Z');
      expect((await apiKeys.find('id-1'))?.lastUsedAt).toBe('2026-01-02T00:00:00.000Z');
      expect((await apiKeys.revoke('id-1', '2026-01-03T00:00:00.000Z'))?.revokedAt).toBe(
        '2026-01-03T00:00:00.000Z',
      );
      expect((await apiKeys.revoke('id-1', '2026-01-04T00:00:00.000Z'))?.revokedAt).toBe(
        '2026-01-03T00:00:00.000Z',
      );
      expect(await apiKeys.revoke('id-9', '2026-01-04T00:00:00.000Z')).toBeUndefined();
    });
  });
}
