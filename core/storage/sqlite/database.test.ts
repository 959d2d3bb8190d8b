import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { applyMigrations, openDatabase } from './database.js';
import { allMigrations } from './migrations/index.js';

describe('SQLite database', () => {
  it('creates an owner-only data dir, uses WAL, loads sqlite-vec and applies migrations once', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'idv-db-')), 'nested', 'data');
    const store = openDatabase(dir);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, 'idv.sqlite')).mode & 0o777).toBe(0o600);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.sqliteVecVersion).toMatch(/^v\d+\.\d+/);
    const versions = (
      store.db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as {
        version: number;
      }[]
    ).map((r) => r.version);
    expect(versions).toEqual(allMigrations.map((m) => m.version));
    expect(applyMigrations(store.db, allMigrations)).toEqual([]);
    store.db.close();
    const again = openDatabase(dir);
    again.db.close();
  });

  it('rolls back a failing migration and refuses duplicate versions', () => {
    const db = new BetterSqlite3(':memory:');
    expect(() =>
      applyMigrations(db, [
        { version: 1, name: 'ok', up: 'CREATE TABLE a (x)' },
        { version: 2, name: 'bad', up: 'CREATE TABLE b (x); SELECT * FROM missing_table' },
      ]),
    ).toThrow();
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name IN ('a','b')").all()).toEqual([
      { name: 'a' },
    ]);
    expect(() =>
      applyMigrations(db, [
        { version: 3, name: 'x', up: '' },
        { version: 3, name: 'y', up: '' },
      ]),
    ).toThrow(/Duplicate/);
  });

  it('refuses UPDATE and DELETE of audit rows', () => {
    const { db } = openDatabase(fs.mkdtempSync(path.join(os.tmpdir(), 'idv-db-')));
    db.prepare(
      `INSERT INTO audit_log (time, request_id, method, route, auth_outcome, http_status, latency_ms, prev_hash, hash)
       VALUES ('t', 'r', 'POST', '/v2/verify', 'missing', 200, 1, 'p', 'h')`,
    ).run();
    expect(() => db.prepare('UPDATE audit_log SET http_status = 500').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    db.close();
  });
});
