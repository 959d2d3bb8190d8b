import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../storage/db.js';
import { AuditLog } from './audit-log.js';
import type { AuditFields } from './audit-chain.js';

const dirs: string[] = [];
function freshStore(): Store {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-audit-'));
  dirs.push(dir);
  return openStore(dir);
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function row(i: number): AuditFields {
  return {
    time: new Date(Date.UTC(2026, 10, 1 + (i % 5))).toISOString(),
    requestId: `req-${i}`,
    method: 'POST',
    route: i % 2 ? '/v2/verify' : '/v2/enroll-fp',
    keyId: null,
    authOutcome: 'missing',
    httpStatus: 200,
    resultStatus: i % 3 === 0 ? 'REJECTED' : 'SUCCESS',
    failedStep: i % 3 === 0 ? 'face_match' : null,
    reason: null,
    scores: JSON.stringify({ face_match: i / 10 }),
    latencyMs: 12.5,
    mobileMasked: '+4479*****456',
    event: null,
  };
}

describe('audit log', () => {
  it('chains rows and verifies them', () => {
    const store = freshStore();
    const audit = new AuditLog(store.db);
    for (let i = 0; i < 20; i++) audit.append(row(i));
    expect(audit.verifyChain()).toMatchObject({ ok: true, checked: 20 });
    store.close();
  });

  it('refuses UPDATE and DELETE through triggers', () => {
    const store = freshStore();
    const audit = new AuditLog(store.db);
    audit.append(row(1));
    expect(() => store.db.prepare('UPDATE audit_log SET http_status = 500').run()).toThrow(/append-only/);
    expect(() => store.db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    store.close();
  });

  it('names the first altered row, and the CLI exits 1 on a broken chain', () => {
    const store = freshStore();
    const audit = new AuditLog(store.db);
    for (let i = 0; i < 10; i++) audit.append(row(i));
    store.db.exec('DROP TRIGGER audit_log_no_update');
    store.db.prepare("UPDATE audit_log SET result_status = 'SUCCESS' WHERE seq = 7").run();
    expect(audit.verifyChain()).toMatchObject({ ok: false, firstBrokenSeq: 7, checked: 6 });
    store.close();
    const cli = spawnSync('npx', ['tsx', 'core/cli/audit.ts', 'verify', '--data-dir', store.dataDir], {
      encoding: 'utf8',
    });
    expect(cli.status).toBe(1);
    expect(cli.stdout).toMatch(/broken at row 7/);
  });

  it('detects a deleted row', () => {
    const store = freshStore();
    const audit = new AuditLog(store.db);
    for (let i = 0; i < 5; i++) audit.append(row(i));
    store.db.exec('DROP TRIGGER audit_log_no_delete');
    store.db.prepare('DELETE FROM audit_log WHERE seq = 3').run();
    expect(audit.verifyChain()).toMatchObject({ ok: false, firstBrokenSeq: 4 });
    store.close();
  });

  it('filters and pages by seq, newest first', () => {
    const store = freshStore();
    const audit = new AuditLog(store.db);
    for (let i = 0; i < 30; i++) audit.append(row(i));
    const page1 = audit.query({ route: '/v2/verify', limit: 5 });
    expect(page1.map((r) => r.seq)).toEqual([30, 28, 26, 24, 22]);
    const page2 = audit.query({ route: '/v2/verify', limit: 5, beforeSeq: page1.at(-1)!.seq });
    expect(page2[0]!.seq).toBe(20);
    expect(audit.query({ failedStep: 'face_match' }).every((r) => r.resultStatus === 'REJECTED')).toBe(true);
    const stats = audit.dailyStats(100_000);
    expect(stats.reduce((n, d) => n + d.total, 0)).toBe(30);
    expect(stats.reduce((n, d) => n + (d.byStep.face_match ?? 0), 0)).toBe(10);
    store.close();
  });

  it('runs transactional extras atomically with the row', () => {
    const store = freshStore();
    const audit = new AuditLog(store.db);
    store.db.exec('CREATE TABLE side (v TEXT)');
    expect(() =>
      audit.append(row(1), (db) => {
        db.prepare("INSERT INTO side VALUES ('x')").run();
        throw new Error('publish failed');
      }),
    ).toThrow('publish failed');
    expect(audit.count()).toBe(0);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM side').get()).toEqual({ n: 0 });
    store.close();
  });
});

describe('keys and auth CLIs', () => {
  it('creates a key printed alone on the last line, lists it, revokes it and switches the mode', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-cli-'));
    dirs.push(dir);
    const run = (script: string, ...args: string[]) =>
      execFileSync('npx', ['tsx', `core/cli/${script}.ts`, ...args, '--data-dir', dir], { encoding: 'utf8' });
    const created = run('keys', 'create', '--description', 'Core banking backend').trim().split('\n');
    const key = created.at(-1)!;
    expect(key).toMatch(/^idv_[a-z0-9]{10}_[A-Za-z0-9_-]{43}$/);
    const listed = run('keys', 'list');
    expect(listed).toContain('Core banking backend');
    expect(listed).not.toContain(key);
    const id = listed.split(/\s+/)[0]!;
    expect(run('keys', 'revoke', id)).toMatch(/Revoked/);
    expect(run('keys', 'list')).toMatch(/revoked/);
    expect(run('auth', 'mode', 'enforce')).toMatch(/enforce/);
    expect(run('auth', 'mode')).toMatch(/Auth mode: enforce/);
    const bad = spawnSync('npx', ['tsx', 'core/cli/auth.ts', 'mode', 'sometimes', '--data-dir', dir], {
      encoding: 'utf8',
    });
    expect(bad.status).toBe(2);
  });
});
