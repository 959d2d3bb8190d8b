import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsoleRole, ConsoleUserRecord } from '../../contracts/console-repositories.js';
import type { StoreFactory, StoreUnderTest } from './harness.js';

function user(id: string, username: string, role: ConsoleRole, createdAt: string): ConsoleUserRecord {
  return { id, username, role, passwordHash: `scrypt$hash-of-${id}`, createdAt, disabledAt: null };
}

/** ConsoleAccountRepository and ConsoleSessionRepository. */
export function consoleContract(factory: StoreFactory): void {
  describe('console account and session repositories', () => {
    let subject: StoreUnderTest;
    beforeEach(async () => {
      subject = await factory();
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it('creates the first admin once, with names unique regardless of case', async () => {
      const accounts = subject.store.consoleAccounts;
      const other = (await subject.another()).consoleAccounts;
      expect(await accounts.hasEnabledAdmin()).toBe(false);
      const results = await Promise.all([
        accounts.insert(user('u1', 'Root', 'admin', '2026-01-01T00:00:00.000Z'), { onlyIfNoAdmin: true }),
        other.insert(user('u2', 'boss', 'admin', '2026-01-01T00:00:01.000Z'), { onlyIfNoAdmin: true }),
      ]);
      expect(results.sort()).toEqual(['admin_exists', 'created']);
      expect(await accounts.hasEnabledAdmin()).toBe(true);
      const admin = (await accounts.list())[0]!;
      expect(
        await accounts.insert(
          user('u3', admin.username.toUpperCase(), 'operator', '2026-01-02T00:00:00.000Z'),
        ),
      ).toBe('duplicate');
      expect(await accounts.insert(user('u4', 'olivia', 'operator', '2026-01-03T00:00:00.000Z'))).toBe(
        'created',
      );
      expect((await accounts.findByUsername('OLIVIA'))?.id).toBe('u4');
      expect(await accounts.get('u4')).toEqual(user('u4', 'olivia', 'operator', '2026-01-03T00:00:00.000Z'));
      expect((await accounts.list()).map((u) => u.id)).toEqual([admin.id, 'u4']);
    });

    it('refuses a change that leaves no enabled admin, and applies the others', async () => {
      const accounts = subject.store.consoleAccounts;
      await accounts.insert(user('a1', 'alice', 'admin', '2026-01-01T00:00:00.000Z'));
      await accounts.insert(user('a2', 'bob', 'admin', '2026-01-02T00:00:00.000Z'));
      const other = (await subject.another()).consoleAccounts;
      // Two admins demoting each other at once: one must stay.
      const results = await Promise.all([
        accounts.update('a1', { role: 'operator' }),
        other.update('a2', { disabledAt: '2026-02-01T00:00:00.000Z' }),
      ]);
      expect(results.sort()).toEqual(['last_admin', 'updated']);
      expect(await accounts.hasEnabledAdmin()).toBe(true);
      expect(await accounts.update('zz', { role: 'admin' })).toBe('not_found');
      await accounts.insert(user('o1', 'olivia', 'operator', '2026-01-03T00:00:00.000Z'));
      expect(await accounts.update('o1', { role: 'auditor', passwordHash: 'scrypt$new' })).toBe('updated');
      expect(await accounts.get('o1')).toMatchObject({
        role: 'auditor',
        passwordHash: 'scrypt$new',
        disabledAt: null,
      });
    });

    it('finds a session with its account, drops expired ones and ends them by account', async () => {
      const { consoleAccounts: accounts, consoleSessions: sessions } = subject.store;
      await accounts.insert(user('u1', 'olivia', 'operator', '2026-01-01T00:00:00.000Z'));
      await sessions.create({
        idHash: 'old',
        userId: 'u1',
        createdAt: '2026-01-01T00:00:00.000Z',
        expiresAt: '2026-01-01T08:00:00.000Z',
      });
      const fresh = {
        idHash: 'fresh',
        userId: 'u1',
        createdAt: '2026-01-02T00:00:00.000Z',
        expiresAt: '2026-01-02T08:00:00.000Z',
      };
      await sessions.create(fresh);
      expect(await sessions.find('old')).toBeUndefined();
      expect(await sessions.find('fresh')).toEqual({
        session: fresh,
        user: user('u1', 'olivia', 'operator', '2026-01-01T00:00:00.000Z'),
      });
      await sessions.create({ ...fresh, idHash: 'second' });
      await sessions.delete('fresh');
      expect(await sessions.find('fresh')).toBeUndefined();
      expect(await sessions.find('second')).toBeDefined();
      await sessions.deleteForUser('u1');
      expect(await sessions.find('second')).toBeUndefined();
    });
  });
}
