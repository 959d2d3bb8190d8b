import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../../errors.js';
import { extractFeatures } from '../extract/index.js';
import { syntheticFingerprint } from '../synthetic/index.js';
import {
  decodeTemplate,
  encodeTemplate,
  KEY_FILE_NAME,
  loadOrCreateTemplateKey,
  openTemplate,
  sealTemplate,
} from './index.js';

const features = extractFeatures(syntheticFingerprint(42, 0));

describe('template format', () => {
  it('round-trips features with quarter-pixel coordinates and fine angles', () => {
    const bytes = encodeTemplate({ modelVersion: 'fp-test-1', features });
    const back = decodeTemplate(bytes);
    expect(back.modelVersion).toBe('fp-test-1');
    expect([back.features.width, back.features.height, back.features.dpi]).toEqual([
      features.width,
      features.height,
      features.dpi,
    ]);
    expect(back.features.quality).toBe(Math.round(features.quality));
    expect(back.features.minutiae.length).toBe(features.minutiae.length);
    features.minutiae.forEach((m, i) => {
      const b = back.features.minutiae[i]!;
      expect(Math.abs(b.x - m.x)).toBeLessThanOrEqual(0.125);
      expect(Math.abs(b.y - m.y)).toBeLessThanOrEqual(0.125);
      const turn = Math.abs(b.angle - m.angle);
      expect(Math.min(turn, 2 * Math.PI - turn)).toBeLessThan(1e-4);
      expect(b.type).toBe(m.type);
    });
    expect(Buffer.from(back.features.extra ?? []).equals(Buffer.from(features.extra ?? []))).toBe(true);
    // 8 bytes a minutia plus a small header: compact.
    expect(bytes.length).toBeLessThan(40 + features.minutiae.length * 8 + (features.extra?.length ?? 0) + 4);
  });

  it('refuses bad magic, unknown versions, truncation and trailing bytes', () => {
    const bytes = encodeTemplate({ modelVersion: 'v', features });
    const variants = [
      Buffer.concat([Buffer.from('XXXX'), bytes.subarray(4)]),
      Buffer.from(bytes),
      bytes.subarray(0, bytes.length - 3),
      Buffer.concat([bytes, Buffer.from([0])]),
    ];
    variants[1]![4] = 9;
    for (const bad of variants) expect(() => decodeTemplate(bad)).toThrow(CoreError);
  });
});

describe('template encryption', () => {
  const key = Buffer.alloc(32, 7);
  const plain = encodeTemplate({ modelVersion: 'v', features });

  it('seals with a fresh IV and opens with the same key and number', () => {
    const a = sealTemplate(plain, key, '+447911123456');
    const b = sealTemplate(plain, key, '+447911123456');
    expect(a.equals(b)).toBe(false);
    expect(a.includes(plain.subarray(0, 16))).toBe(false);
    expect(openTemplate(a, key, '+447911123456').equals(plain)).toBe(true);
  });

  it('detects tampering, the wrong key and a blob moved to another number', () => {
    const sealed = sealTemplate(plain, key, '+447911123456');
    for (const offset of [5, 20, sealed.length - 1]) {
      const tampered = Buffer.from(sealed);
      tampered[offset]! ^= 1;
      expect(() => openTemplate(tampered, key, '+447911123456')).toThrow(
        /authentication failed|envelope|not an encrypted/,
      );
    }
    expect(() => openTemplate(sealed, Buffer.alloc(32, 8), '+447911123456')).toThrow(CoreError);
    expect(() => openTemplate(sealed, key, '+447911999999')).toThrow(CoreError);
  });

  it('gives processes that start together one whole key, and leaves nothing else behind', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fp-key-race-'));
    const dir = path.join(root, 'data');
    const go = path.join(root, 'go');
    const count = 6;
    const script = (index: number) =>
      [
        "import fs from 'node:fs';",
        `import { loadOrCreateTemplateKey } from ${JSON.stringify(path.resolve(__dirname, 'key-file.ts'))};`,
        `fs.writeFileSync(${JSON.stringify(path.join(root, `ready-${index}`))}, '');`,
        `while (!fs.existsSync(${JSON.stringify(go)}));`,
        `try { process.stdout.write(loadOrCreateTemplateKey(${JSON.stringify(dir)}).toString('hex')); }`,
        "catch (error) { process.stdout.write('error: ' + error.message); }",
      ].join('\n');
    try {
      const outputs = Array.from({ length: count }, (_, index) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', script(index)],
          {
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        return new Promise<string>((resolve) => {
          child.on('exit', () => {
            resolve(out);
          });
        });
      });
      // Released together once every process has loaded the code and waits at the start line.
      while (fs.readdirSync(root).filter((name) => name.startsWith('ready-')).length < count)
        await new Promise((resolve) => setTimeout(resolve, 20));
      fs.writeFileSync(go, '');
      const keys = await Promise.all(outputs);
      expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
      expect(new Set(keys)).toEqual(new Set([keys[0]]));
      expect(fs.readdirSync(dir)).toEqual([KEY_FILE_NAME]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('creates the key file once, owner-only, and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fp-key-'));
    try {
      const first = loadOrCreateTemplateKey(dir);
      expect(first.length).toBe(32);
      expect(fs.statSync(path.join(dir, KEY_FILE_NAME)).mode & 0o777).toBe(0o600);
      expect(loadOrCreateTemplateKey(dir).equals(first)).toBe(true);
      fs.writeFileSync(path.join(dir, KEY_FILE_NAME), Buffer.alloc(5));
      expect(() => loadOrCreateTemplateKey(dir)).toThrow(/32 bytes/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
