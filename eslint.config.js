// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Layering of CONVENTIONS.md: what each folder may never import. */
const coreForbidden = {
  paths: [{ name: 'electron', message: 'core/ runs in plain Node: no Electron.' }],
  patterns: [
    {
      group: ['**/electron/**', '**/renderer/**'],
      message: 'core/ imports nothing from electron/ or renderer/.',
    },
  ],
};
const rendererForbidden = {
  paths: [{ name: 'electron', message: 'The renderer talks to the server over HTTP only.' }],
  patterns: [
    { group: ['node:*'], message: 'The renderer has no Node APIs.' },
    {
      group: ['**/core/**', '!**/core/http/api-types*'],
      allowTypeImports: true,
      message: 'The renderer may only `import type` from core (the API contract).',
    },
    { group: ['**/electron/**'], message: 'The renderer never imports electron/.' },
  ],
};
const electronForbidden = {
  patterns: [{ group: ['**/renderer/**'], message: 'electron/ never imports the renderer at runtime.' }],
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '**/dist/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/artifacts/**',
      '.tmp/**',
      'scripts/*.mjs',
      'renderer/vite.config.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/prefer-nullish-coalescing': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['core/**/*.ts'], rules: { 'no-restricted-imports': ['error', coreForbidden] } },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'no-restricted-imports': ['error', rendererForbidden],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  { files: ['electron/**/*.ts'], rules: { 'no-restricted-imports': ['error', electronForbidden] } },
  {
    files: ['core/**/*.test.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
);
