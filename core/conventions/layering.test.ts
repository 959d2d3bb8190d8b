import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layering of CONVENTIONS.md and of core's own layers (engines, storage, routes, contracts) is enforced by ESLint's
 * no-restricted-imports in eslint.config.js; each rule must fire on a forbidden import and stay quiet on an allowed one.
 */
describe('layering rules', () => {
  // Type-aware rules are off here: snippets are not files of the TypeScript project; the import rules are not type-aware.
  const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });
  const violations = async (filePath: string, code: string): Promise<string[]> => {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };
  const importing = (specifier: string, typeOnly = false): string =>
    typeOnly
      ? `import type { X } from '${specifier}';\nexport type A = X;\n`
      : `import { x } from '${specifier}';\nexport const a = x;\n`;

  it('keeps Electron and the renderer out of core', async () => {
    expect(
      await violations('core/services/x.ts', "import { app } from 'electron';\nexport const a = app;\n"),
    ).toHaveLength(1);
    expect(await violations('core/services/x.ts', importing('../../renderer/src/y.js'))).toHaveLength(1);
    expect(
      await violations('core/services/x.ts', "import fs from 'node:fs';\nexport const a = fs;\n"),
    ).toHaveLength(0);
  });

  it('keeps Node, Electron and core runtime imports out of the renderer, allowing API types', async () => {
    expect(
      await violations('renderer/src/x.ts', "import fs from 'node:fs';\nexport const a = fs;\n"),
    ).toHaveLength(1);
    expect(
      await violations(
        'renderer/src/x.ts',
        "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;\n",
      ),
    ).toHaveLength(1);
    expect(await violations('renderer/src/x.ts', importing('../../core/mobile.js'))).toHaveLength(1);
    expect(
      await violations('renderer/src/x.ts', importing('../../../core/http/routes/console/api-types')),
    ).toHaveLength(1);
    expect(
      await violations('renderer/src/x.ts', importing('../../../core/http/routes/console/api-types', true)),
    ).toHaveLength(0);
    expect(
      await violations('renderer/src/x.ts', importing('../../core/services/container.js', true)),
    ).toHaveLength(0);
  });

  it('keeps the renderer out of the Electron main process', async () => {
    expect(await violations('electron/x.ts', importing('../renderer/src/y.js'))).toHaveLength(1);
  });

  it('keeps engines off services, http and storage, on contracts and settings', async () => {
    for (const engine of ['fingerprint', 'face/pipeline', 'document/ocr', 'imaging', 'models', 'workers']) {
      const file = `core/${engine}/x.ts`;
      const up = engine.includes('/') ? '../../' : '../';
      for (const forbidden of ['services/container.js', 'http/app.js', 'storage/open-store.js'])
        expect(await violations(file, importing(`${up}${forbidden}`)), `${file} ${forbidden}`).toHaveLength(
          1,
        );
      for (const allowed of ['contracts/step-result.js', 'settings/settings.js', 'errors.js'])
        expect(await violations(file, importing(`${up}${allowed}`)), `${file} ${allowed}`).toHaveLength(0);
    }
    // A test wires real parts together, as the composition root does.
    expect(await violations('core/fingerprint/x.test.ts', importing('../testing/store.js'))).toHaveLength(0);
    expect(
      await violations('core/fingerprint/x.test.ts', importing('../storage/sqlite/testing.js')),
    ).toHaveLength(0);
  });

  it('keeps storage off engines, services, http and settings, and SQL inside storage', async () => {
    for (const forbidden of [
      'fingerprint/search.js',
      'face/engine.js',
      'services/audit-log.js',
      'http/app.js',
    ]) {
      expect(
        await violations('core/storage/sqlite/x.ts', importing(`../../${forbidden}`)),
        forbidden,
      ).toHaveLength(1);
    }
    expect(await violations('core/storage/sqlite/x.ts', importing('../../contracts/store.js'))).toHaveLength(
      0,
    );
    expect(await violations('core/storage/sqlite/x.ts', importing('better-sqlite3'))).toHaveLength(0);
    for (const file of [
      'core/services/x.ts',
      'core/fingerprint/x.ts',
      'core/http/x.ts',
      'core/services/x.test.ts',
    ]) {
      expect(await violations(file, importing('better-sqlite3')), file).toHaveLength(1);
      expect(await violations(file, importing('sqlite-vec')), file).toHaveLength(1);
    }
  });

  it('keeps routes off storage, on services', async () => {
    expect(await violations('core/http/routes/x.ts', importing('../../storage/open-store.js'))).toHaveLength(
      1,
    );
    expect(
      await violations('core/http/routes/console/x.ts', importing('../../../storage/sqlite/sqlite-store.js')),
    ).toHaveLength(1);
    expect(await violations('core/http/routes/x.ts', importing('../../services/container.js'))).toHaveLength(
      0,
    );
  });

  it('keeps the asset resolver at the bottom: Node built-ins only', async () => {
    expect(await violations('core/assets/x.ts', importing('../settings/settings.js'))).toHaveLength(1);
    expect(await violations('core/assets/x.ts', importing('node:fs'))).toHaveLength(0);
    expect(await violations('core/assets/x.ts', importing('./app-files.json'))).toHaveLength(0);
    expect(await violations('core/face/x.ts', importing('../assets/assets.js'))).toHaveLength(0);
    expect(await violations('core/storage/sqlite/x.ts', importing('../../assets/assets.js'))).toHaveLength(0);
  });

  it('keeps contracts free of implementations, allowing types', async () => {
    expect(await violations('core/contracts/x.ts', importing('../face/engine.js'))).toHaveLength(1);
    expect(await violations('core/contracts/x.ts', importing('../storage/open-store.js'))).toHaveLength(1);
    expect(await violations('core/contracts/x.ts', importing('../imaging/decode.js', true))).toHaveLength(0);
  });
});
