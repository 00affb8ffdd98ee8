// Lint keeps the layers of docs/DEVELOPING.md: the gateway client, the shared protocol and the
// cores must run without VS Code, so they may not import `vscode`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const vscodePath = { name: 'vscode', message: 'This layer must run without VS Code (see docs/DEVELOPING.md).' };
// zod's own `z` object keeps all of zod in a bundle (~440 KB); src/shared/zod.ts is the one import.
const zodPaths = ['zod', 'zod/mini'].map((name) => ({ name, message: "Use `import * as z from '…/shared/zod'` (zod/mini, tree-shaken)." }));
const restricted = (...paths) => ({ 'no-restricted-imports': ['error', { paths }] });
const noVscode = restricted(vscodePath, ...zodPaths);

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', '.cache/**', 'test-results/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  { files: ['src/**/*.ts', 'webview/**/*.ts'], rules: restricted(...zodPaths) },
  { files: ['src/api/**/*.ts', 'src/shared/**/*.ts', 'src/*/core/**/*.ts', 'webview/**/*.ts'], rules: noVscode },
  { files: ['src/shared/zod.ts'], rules: restricted(vscodePath) },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/log.ts'],
    rules: { 'no-console': 'error' },
  },
);
