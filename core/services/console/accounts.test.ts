import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../storage/db.js';
import { ConsoleAccounts } from './accounts.js';
import { ConsoleSessions } from './sessions.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-accounts-'));
const store = openStore(dir);
const accounts = new ConsoleAccounts(store.db);

afterAll(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('console accounts and sessions', () => {
  it('stores only scrypt hashes, authenticates, and keeps the last admin', async () => {
    const admin = await accounts.setupAdmin('Root', 'long enough password');
    await expect(accounts.setupAdmin('other', 'long enough password')).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const row = store.db.prepare('SELECT password_hash FROM console_users WHERE id = ?').get(admin.id) as {
      password_hash: string;
    };
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row.password_hash).not.toContain('long enough');
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
  });

  it('keeps only the hash of a session id, expires sessions and ends them when an account is disabled', async () => {
    const user = await accounts.create('olivia', 'operator password', 'operator');
    const sessions = new ConsoleSessions(store.db);
    const { token } = sessions.create(user.id);
    expect(
      store.db.prepare('SELECT COUNT(*) AS n FROM console_sessions WHERE id_hash = ?').get(token),
    ).toEqual({ n: 0 });
    expect(sessions.resolve(token)).toMatchObject({ username: 'olivia' });
    await accounts.update(user.id, { disabled: true });
    expect(sessions.resolve(token)).toBeUndefined();
    const expired = new ConsoleSessions(store.db, -1).create(user.id);
    await accounts.update(user.id, { disabled: false });
    expect(sessions.resolve(expired.token)).toBeUndefined();
  });
});
