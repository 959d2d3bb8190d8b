import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGrayPng, syntheticFingerprint } from '../core/fingerprint/synthetic/index.js';
import { checkExternals, ROOT, staleParts } from './build.mjs';

const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
const STAND_IN = path.join(ROOT, 'electron', 'testing', 'register-stand-in.mjs');

/** Lines a child prints, and a way to wait for one. */
function lines(child: ChildProcess): (match: (line: string) => boolean, what: string) => Promise<string> {
  const seen: string[] = [];
  const waiting = new Set<() => void>();
  let rest = '';
  const take = (chunk: Buffer): void => {
    const parts = (rest + chunk.toString()).split('\n');
    rest = parts.pop() ?? '';
    seen.push(...parts);
    for (const wake of waiting) wake();
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return (match, what) =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = seen.find(match);
        if (found !== undefined) {
          waiting.delete(check);
          resolve(found);
        } else if (child.exitCode !== null) {
          waiting.delete(check);
          reject(new Error(`exited (${child.exitCode}) before ${what}:\n${seen.join('\n')}`));
        }
      };
      waiting.add(check);
      child.once('exit', check);
      check();
    });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', resolve);
  });
}

/**
 * The bundle as shipped, built into a folder of its own and run under plain Node from another working directory:
 * the Electron main process (Electron's binary cannot be had here: a stand-in records what main asks of it) and the
 * administration commands. The API and console suites run against the built server in CI (.ci/run).
 */
describe('npm run build: the bundle runs as shipped', () => {
  let out = '';
  let elsewhere = '';

  beforeAll(() => {
    fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    out = fs.mkdtempSync(path.join(ROOT, '.tmp', 'bundle-'));
    elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-elsewhere-'));
    const built = spawnSync(process.execPath, ['scripts/build.mjs', '--only', 'bundle', '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
  }, 120_000);

  afterAll(() => {
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  it('writes every entry, the app files and the build stamp; the console is a part of its own', () => {
    for (const file of ['server.mjs', 'worker.mjs', 'cli.mjs', 'main.mjs', 'preload.cjs', 'build-info.json'])
      expect(fs.existsSync(path.join(out, file)), file).toBe(true);
    expect(fs.existsSync(path.join(out, 'assets', 'models', 'manifest.json'))).toBe(true);
    expect(fs.readFileSync(path.join(out, 'preload.cjs'), 'utf8')).toContain('require("electron")');
    expect(staleParts(out)).toEqual([{ part: 'renderer', missing: true }]);
    const stamp = path.join(out, 'build-info.json');
    const old = new Date(Date.now() - 365 * 86_400_000);
    fs.utimesSync(stamp, old, old);
    expect(staleParts(out)).toEqual([
      { part: 'bundle', missing: false, changed: expect.any(String) as string },
      { part: 'renderer', missing: true },
    ]);
    fs.utimesSync(stamp, new Date(), new Date());
  });

  it('dist/main.mjs starts the server from the bundle, opens the window on it and closes it on quit', async () => {
    const home = path.join(elsewhere, 'home');
    const child = spawn(process.execPath, ['--import', STAND_IN, path.join(out, 'main.mjs')], {
      cwd: elsewhere,
      env: { ...process.env, IDV_STAND_IN_HOME: home, IDV_PORT: '0', IDV_HOST: '127.0.0.1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      const line = lines(child);
      const window = JSON.parse(await line((l) => l.includes('"standIn":"window"'), 'the window')) as {
        preload: string;
        webPreferences: Record<string, unknown>;
      };
      expect(window.preload).toBe(path.join(out, 'preload.cjs'));
      expect(window.webPreferences).toMatchObject({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
      });
      const { url } = JSON.parse(await line((l) => l.includes('"standIn":"load"'), 'the console URL')) as {
        url: string;
      };
      // The data folder is Electron's userData: first run, no administrator yet.
      expect(fs.existsSync(path.join(home, 'userData', 'data'))).toBe(true);
      const setup = (await (await fetch(new URL('api/console/setup-state', url))).json()) as Record<
        string,
        unknown
      >;
      expect(setup).toEqual({ hasAdmin: false });
      const openapi = (await (await fetch(new URL('openapi.json', url))).json()) as {
        info: { version: string };
      };
      expect(openapi.info.version).toBe(VERSION);
      // A fingerprint enrollment runs on the fingerprint lane: its worker starts from the bundle's worker entry.
      const body = new FormData();
      body.append('mobile_number', '447911123456');
      body.append('file', new Blob([encodeGrayPng(syntheticFingerprint(7, 0), 500)]), 'print.png');
      const enrolled = await fetch(new URL('v2/enroll-fp', url), { method: 'POST', body });
      expect(await enrolled.json()).toMatchObject({ status: 'SUCCESS' });
      const health = (await (await fetch(new URL('docs/fingerprint/api/health', url))).json()) as {
        engine: { workers: Record<string, { state: string }> };
      };
      expect(health.engine.workers.fingerprint?.state).toBe('ready');

      child.stdin?.write('quit\n');
      await line((l) => l.includes('"standIn":"quit"'), 'quit');
      expect(await exited(child)).toBe(0);
      await expect(fetch(url)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 180_000);

  it('dist/cli.mjs runs the administration commands', () => {
    const dataDir = path.join(elsewhere, 'cli-data');
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(out, 'cli.mjs'), ...args, '--data-dir', dataDir], {
        cwd: elsewhere,
        encoding: 'utf8',
      });
    const created = cli('keys', 'create', '--description', 'bundle test');
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout.trim().split('\n').at(-1)).toMatch(/^idv_[0-9a-f]{10}_/);
    expect(cli('keys', 'list').stdout).toContain('bundle test');
    expect(cli('audit', 'verify').status).toBe(0);
    const unknown = cli('nothing');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('keys|auth|audit|fp');
  });
});

describe('the externals check', () => {
  const out = path.join(ROOT, 'dist');
  const output = (imports: string[]) => ({ imports: imports.map((p) => ({ path: p, external: true })) });

  it('lets the bundle import Node built-ins and the dependencies the packaged app ships', () => {
    expect(() => {
      checkExternals(
        { outputs: { 'dist/server.mjs': output(['node:fs', 'path', 'fastify', 'sharp/lib/x.js']) } },
        out,
      );
    }).not.toThrow();
    expect(() => {
      checkExternals({ outputs: { 'dist/main.mjs': output(['electron']) } }, out);
    }).not.toThrow();
  });

  it('refuses a devDependency, an undeclared package, and Electron outside the desktop shell', () => {
    for (const specifier of ['vite', '@playwright/test', 'left-pad', 'electron'])
      expect(() => {
        checkExternals({ outputs: { 'dist/chunks/X.mjs': output([specifier]) } }, out);
      }, specifier).toThrow(/not in package.json "dependencies"/);
  });
});
