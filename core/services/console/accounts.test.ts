import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempStore, type TempStore } from '../../testing/store.js';
import { ConsoleAccounts } from './accounts.js';
import { ConsoleSessions, hashSessionToken } from './sessions.js';

let temp: TempStore;
let accounts: ConsoleAccounts;
beforeAll(async () => {
  temp = await tempStore('idv-accounts-');
  accounts = new ConsoleAccounts(temp.store.consoleAccounts);
});
afterAll(async () => {
  await temp.dispose();
});

describe('console accounts and sessions', () => {
  it('stores only scrypt hashes, authenticates, and keeps the last admin', async () => {
    const admin = await accounts.setupAdmin('Root', 'long enough password');
    await expect(accounts.setupAdmin('other', 'long enough password')).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const stored = await temp.store.consoleAccounts.get(admin.id);
    expect(stored?.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(stored?.passwordHash).not.toContain('long enough');
    expect(await accounts.authenticate('root', 'long enough password')).toMatchObject({ id: admin.id });
    expect(await accounts.authenticate('root', 'wrong password!')).toBeUndefined();
    expect(await accounts.authenticate('nobody', 'long enough password')).toBeUndefined();
    await expect(accounts.update(admin.id, { role: 'operator' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(accounts.create('x', 'long enough password', 'operator')).rejects.toMatchObject({
      code: 'FIELD_INVALID',
    });
    await expect(accounts.create('short', 'short', 'operator')).rejects.toMatchObject({
      code: 'FIELD_INVALID',
    });
    await expect(accounts.create('ROOT', 'long enough password', 'operator')).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { field: 'username' },
    });
  });

  it('keeps only the hash of a session id, expires sessions and ends them when an account is disabled', async () => {
    const user = await accounts.create('olivia', 'operator password', 'operator');
    const sessions = new ConsoleSessions(temp.store.consoleSessions);
    const { token } = await sessions.create(user.id);
    expect(await temp.store.consoleSessions.find(token)).toBeUndefined();
    expect(await temp.store.consoleSessions.find(hashSessionToken(token))).toBeDefined();
    expect(await sessions.resolve(token)).toMatchObject({ username: 'olivia' });
    await accounts.update(user.id, { disabled: true });
    expect(await sessions.resolve(token)).toBeUndefined();
    const expired = await new ConsoleSessions(temp.store.consoleSessions, -1).create(user.id);
    await accounts.update(user.id, { disabled: false });
    expect(await sessions.resolve(expired.token)).toBeUndefined();
  });
});
