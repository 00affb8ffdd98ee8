// Lint keeps the layers of docs/DEVELOPING.md: each zone below is one row of its table, so a
// forbidden import fails here instead of in review. Cycles are refused (a cycle means two modules
// are one responsibility, or the vocabulary is in the wrong place) and type-only imports are
// marked, so esbuild drops them and a reader sees which imports cost bundle size.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import prettier from 'eslint-config-prettier/flat';

const vscodePath = { name: 'vscode', message: 'This layer must run without VS Code (see docs/DEVELOPING.md).' };
// zod's own `z` object keeps all of zod in a bundle (~440 KB); src/shared/zod.ts is the one import.
const zodPaths = ['zod', 'zod/mini'].map((name) => ({
  name,
  message: "Use `import * as z from '…/shared/zod'` (zod/mini, tree-shaken).",
}));
const restricted = (...paths) => ({ 'no-restricted-imports': ['error', { paths }] });
const noVscode = restricted(vscodePath, ...zodPaths);

const src = (...dirs) => dirs.map((d) => `./src/${d}`);
const features = src('chat/view', 'chat/tools', 'video/ui', 'connection', 'lm/vscode/provider.ts');
const everythingRightOfApi = [...src('chat', 'video', 'lm', 'platform', 'connection', 'extension.ts')];

/** Each zone: files under `target` may not import from `from` (docs/DEVELOPING.md, "Layers"). */
const zones = [
  {
    target: './src/shared',
    from: [...src('api'), ...everythingRightOfApi],
    message: 'src/shared imports nothing of the extension.',
  },
  {
    target: './src/api',
    from: everythingRightOfApi,
    message: 'The gateway client imports no feature, core or platform code.',
  },
  {
    target: src('chat/core', 'video/core', 'lm/core'),
    from: [...src('platform'), ...features, './src/extension.ts'],
    message: 'Cores run in plain node: no platform adapters, no UI.',
  },
  // Features keep to their own internals; what two of them share belongs in api or shared.
  {
    target: './src/chat',
    from: src('video', 'lm', 'connection'),
    message: 'Features do not import each other: move the shared part to src/api or src/shared.',
  },
  {
    target: './src/video',
    from: src('chat', 'lm', 'connection'),
    message: 'Features do not import each other: move the shared part to src/api or src/shared.',
  },
  {
    target: './src/lm',
    from: src('chat', 'video', 'connection'),
    message: 'Features do not import each other: move the shared part to src/api or src/shared.',
  },
  {
    target: './src/connection',
    from: src('chat', 'video', 'lm'),
    message: 'Features do not import each other: move the shared part to src/api or src/shared.',
  },
  {
    target: './src/platform',
    from: [...features, './src/extension.ts'],
    message: 'Platform adapters import no feature.',
  },
  {
    target: './webview',
    from: [...src('api', 'chat', 'video', 'lm', 'platform', 'connection', 'extension.ts')],
    message: 'The webview bundle imports only src/shared.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'out/**',
      '.cache/**',
      'test-results/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle must parse the imported TypeScript files to follow their imports.
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'webview/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.ts', 'webview/**/*.ts', 'webview/**/*.tsx'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones }], ...restricted(...zodPaths) },
  },
  {
    files: ['src/api/**/*.ts', 'src/shared/**/*.ts', 'src/*/core/**/*.ts', 'webview/**/*.ts', 'webview/**/*.tsx'],
    rules: noVscode,
  },
  { files: ['src/shared/zod.ts'], rules: restricted(vscodePath) },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/log.ts'],
    rules: { 'no-console': 'error' },
  },
  // Formatting is prettier's (checked by `npm run format:check`); lint keeps to meaning.
  prettier,
);
