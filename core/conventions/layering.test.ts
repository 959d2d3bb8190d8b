import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/** The layering table of CONVENTIONS.md is enforced by ESLint's no-restricted-imports in eslint.config.js. */
describe('layering rules', () => {
  // Type-aware rules are off here: snippets are not files of the TypeScript project; the import rules are not type-aware.
  const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });
  const violations = async (filePath: string, code: string): Promise<string[]> => {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  it('keeps Electron and the renderer out of core', async () => {
    expect(
      await violations('core/services/x.ts', "import { app } from 'electron';\nexport const a = app;\n"),
    ).toHaveLength(1);
    expect(
      await violations(
        'core/services/x.ts',
        "import { y } from '../../renderer/src/y.js';\nexport const a = y;\n",
      ),
    ).toHaveLength(1);
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
    expect(
      await violations(
        'renderer/src/x.ts',
        "import { normaliseMobile } from '../../core/mobile.js';\nexport const a = normaliseMobile;\n",
      ),
    ).toHaveLength(1);
    expect(
      await violations(
        'renderer/src/x.ts',
        "import type { Services } from '../../core/services/container.js';\nexport type A = Services;\n",
      ),
    ).toHaveLength(0);
  });

  it('keeps the renderer out of the Electron main process', async () => {
    expect(
      await violations('electron/x.ts', "import { y } from '../renderer/src/y.js';\nexport const a = y;\n"),
    ).toHaveLength(1);
  });
});
