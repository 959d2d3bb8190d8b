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
      group: ['**/core/**'],
      allowTypeImports: true,
      message: 'The renderer may only `import type` from core (the API contract).',
    },
    { group: ['**/electron/**'], message: 'The renderer never imports electron/.' },
  ],
};
const electronForbidden = {
  patterns: [{ group: ['**/renderer/**'], message: 'electron/ never imports the renderer at runtime.' }],
};

/**
 * Layers inside core (docs/architecture.md): engines depend on contracts, never on services, http or storage; the
 * storage adapters on contracts only; routes reach records through services. Tests and test helpers wire real parts
 * together, as the composition root does, and are exempt.
 */
const sqliteOnlyInStorage = [
  { name: 'better-sqlite3', message: 'SQL lives in core/storage only: use a repository of core/contracts.' },
  { name: 'sqlite-vec', message: 'SQL lives in core/storage only: use a repository of core/contracts.' },
  { name: 'pg', message: 'SQL lives in core/storage only: use a repository of core/contracts.' },
];
const ENGINE_DIRS = ['fingerprint', 'face', 'document', 'imaging', 'models', 'workers'];
const engineGroups = ENGINE_DIRS.map((dir) => `**/${dir}/**`);
/** core's rule with more forbidden imports (a later rule replaces an earlier one for the same files). */
const coreWith = (patterns, paths = sqliteOnlyInStorage) => ({
  paths: [...coreForbidden.paths, ...paths],
  patterns: [...coreForbidden.patterns, ...patterns],
});
const coreRule = coreWith([]);
const engineRule = coreWith([
  {
    group: ['**/services/**', '**/http/**', '**/storage/**'],
    message:
      'Engines depend on core/contracts (ports) and core/settings, never on services, http or storage.',
  },
]);
const storageRule = coreWith(
  [
    {
      group: [...engineGroups, '**/services/**', '**/http/**', '**/settings/**'],
      message: 'Storage adapters implement core/contracts and depend on nothing above them.',
    },
  ],
  [],
);
const routeRule = coreWith([
  {
    group: ['**/storage/**'],
    message: 'Routes reach records through services (core/services), never a store directly.',
  },
]);
const contractRule = coreWith([
  {
    group: [...engineGroups, '**/services/**', '**/http/**', '**/storage/**', '**/settings/**'],
    allowTypeImports: true,
    message: 'Contracts are ports: type imports only, no implementation.',
  },
]);
const assetsRule = coreWith([
  {
    group: ['../*', '../**'],
    message: 'core/assets is the bottom layer every other one uses: Node built-ins only.',
  },
]);
const exempt = ['**/*.test.ts', '**/testing/**'];

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
  { files: ['core/**/*.ts'], rules: { 'no-restricted-imports': ['error', coreRule] } },
  {
    files: ENGINE_DIRS.map((dir) => `core/${dir}/**/*.ts`),
    ignores: exempt,
    rules: { 'no-restricted-imports': ['error', engineRule] },
  },
  { files: ['core/storage/**/*.ts'], rules: { 'no-restricted-imports': ['error', storageRule] } },
  {
    files: ['core/http/routes/**/*.ts'],
    ignores: exempt,
    rules: { 'no-restricted-imports': ['error', routeRule] },
  },
  { files: ['core/contracts/**/*.ts'], rules: { 'no-restricted-imports': ['error', contractRule] } },
  {
    files: ['core/assets/**/*.ts'],
    ignores: exempt,
    rules: { 'no-restricted-imports': ['error', assetsRule] },
  },
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
