import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { auditFields } from '../storage/contract/audit.contract.js';
import { deleteAuditRow, tamperAuditRow } from '../storage/sqlite/testing.js';
import { tempStore, type TempStore } from '../testing/store.js';
import { AuditLog } from './audit-log.js';

const temps: TempStore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of temps.splice(0)) await t.dispose();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function auditOf(rows: number): Promise<{ temp: TempStore; audit: AuditLog }> {
  const temp = await tempStore('idv-audit-');
  temps.push(temp);
  const audit = new AuditLog(temp.store.audit);
  for (let i = 0; i < rows; i++) await audit.append(auditFields(i));
  return { temp, audit };
}

describe('audit log', () => {
  it('chains rows and verifies them', async () => {
    const { audit } = await auditOf(20);
    expect(await audit.verifyChain()).toMatchObject({ ok: true, checked: 20 });
  });

  it('names the first altered row, and the CLI exits 1 on a broken chain', async () => {
    const { temp, audit } = await auditOf(10);
    tamperAuditRow(temp.store, 7, 'SUCCESS');
    expect(await audit.verifyChain()).toMatchObject({ ok: false, firstBrokenSeq: 7, checked: 6 });
    const cli = spawnSync('npx', ['tsx', 'core/cli/audit.ts', 'verify', '--data-dir', temp.dataDir], {
      encoding: 'utf8',
    });
    expect(cli.status).toBe(1);
    expect(cli.stdout).toMatch(/broken at row 7/);
  });

  it('detects a deleted row', async () => {
    const { temp, audit } = await auditOf(5);
    deleteAuditRow(temp.store, 3);
    expect(await audit.verifyChain()).toMatchObject({ ok: false, firstBrokenSeq: 4 });
  });

  it('sums daily volume and rejections by failed step', async () => {
    const { audit } = await auditOf(30);
    const stats = await audit.dailyStats(100_000);
    expect(stats.map((d) => d.day)).toEqual([
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      '2026-11-05',
    ]);
    expect(stats.reduce((n, d) => n + d.total, 0)).toBe(30);
    expect(stats.reduce((n, d) => n + (d.byStep.face_match ?? 0), 0)).toBe(10);
    expect(stats.every((d) => d.rejected === (d.byStep.face_match ?? 0))).toBe(true);
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
