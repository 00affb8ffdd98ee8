// Lint keeps the layers of docs/DEVELOPING.md: each zone below is one row of its table, so a
// forbidden import fails here instead of in review. Cycles are refused (a cycle means two modules
// are one responsibility, or the vocabulary is in the wrong place) and type-only imports are
// marked, so esbuild drops them and a reader sees which imports cost bundle size.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import prettier from 'eslint-config-prettier/flat';
import fs from 'node:fs';

const vscodePath = { name: 'vscode', message: 'A core/ folder runs without VS Code (see docs/DEVELOPING.md).' };
// zod's own `z` object keeps all of zod in a bundle (~440 KB); src/shared/zod.ts is the one import.
const zodPaths = ['zod', 'zod/mini'].map((name) => ({
  name,
  message: "Use `import * as z from '…/shared/zod'` (zod/mini, tree-shaken).",
}));
const restricted = (...paths) => ({ 'no-restricted-imports': ['error', { paths }] });
const noVscode = restricted(vscodePath, ...zodPaths);

// The map is read from the tree, so a new feature or capability folder is guarded the day it is
// made: a feature is any folder of src/ that is not a shared layer, a capability any folder of a
// feature except its composition point (`<feature>/vscode/`). scripts/checkLayout.mjs refuses a
// source file outside these folders.
const SHARED_LAYERS = ['api', 'shared', 'files', 'platform', 'contracts'];
const dirs = (d) =>
  fs.existsSync(d)
    ? fs
        .readdirSync(d, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
    : [];
const features = dirs('src').filter((d) => !SHARED_LAYERS.includes(d));
const capabilities = (feature) => dirs(`src/${feature}`).filter((d) => d !== 'vscode');
const everyFeature = features.map((f) => `./src/${f}/**`);
// A glob, as every other `from` of a zone must be when one is.
const EXTENSION = './src/extension.{ts,js}';
// The webview's pages are its folders (chat, gallery, storyboard…) except webview/common, which
// they share; scripts/checkLayout.mjs refuses a webview file outside a folder.
const webviewPages = dirs('webview').filter((d) => d !== 'common');
const FEATURE_MESSAGE =
  'Features do not import each other: move the shared part to src/api, src/shared or src/contracts.';

/** Each zone: files matching `target` may not import files matching `from` (docs/DEVELOPING.md). */
const zones = [
  {
    target: './src/shared/**',
    from: ['./src/api/**', './src/platform/**', './src/contracts/**', ...everyFeature, EXTENSION],
    message: 'src/shared imports nothing of the extension.',
  },
  {
    target: './src/files/**',
    from: ['./src/api/**', './src/platform/**', './src/contracts/**', ...everyFeature, EXTENSION],
    message: 'src/files holds the host-side file rules (workspace paths, the file writer): it imports only src/shared.',
  },
  {
    target: './src/contracts/**',
    from: ['./src/api/**', './src/files/**', './src/platform/**', ...everyFeature, EXTENSION],
    message: 'src/contracts holds the vocabulary features share: it imports only src/shared.',
  },
  {
    target: './src/api/**',
    from: ['./src/platform/**', ...everyFeature, EXTENSION],
    message: 'The gateway client imports no feature and no platform code.',
  },
  {
    target: './src/platform/**',
    from: [...everyFeature, EXTENSION],
    message: 'Platform adapters import no feature.',
  },
  {
    target: './src/**/core/**',
    from: ['./src/**/vscode/**', './src/platform/**', EXTENSION],
    message: 'A core/ folder runs in plain node: no VS Code side, no platform adapter.',
  },
  ...features.map((f) => ({
    target: `./src/${f}/**`,
    from: [...features.filter((g) => g !== f).map((g) => `./src/${g}/**`), EXTENSION],
    message: FEATURE_MESSAGE,
  })),
  // Inside a feature, one capability's VS Code side does not reach into another's: they meet in the
  // feature's composition point (`src/<feature>/vscode/`), which wires them, and share what their
  // VS Code sides all need through the feature's base capability (`src/<feature>/base/`), which
  // scripts/capabilityGraph.mjs keeps below them.
  ...features.flatMap((f) =>
    capabilities(f).map((c) => ({
      target: `./src/${f}/${c}/**`,
      from: [
        ...capabilities(f)
          .filter((d) => d !== c && d !== 'base')
          .map((d) => `./src/${f}/${d}/vscode/**`),
      ],
      message: `src/${f}/${c} reaches another capability's VS Code side only through src/${f}/vscode/ (the composition point) or src/${f}/base/ (what they share).`,
    })),
  ),
  {
    target: './webview/**',
    from: ['./src/api/**', './src/files/**', './src/platform/**', ...everyFeature, EXTENSION],
    message: 'The webview bundles import only src/shared and src/contracts.',
  },
  // Pages share only through webview/common: each page imports no other page, common imports none.
  ...webviewPages.map((p) => ({
    target: `./webview/${p}/**`,
    from: webviewPages.filter((q) => q !== p).map((q) => `./webview/${q}/**`),
    message: `webview/${p} is one page: what pages share moves to webview/common.`,
  })),
  {
    target: './webview/common/**',
    from: webviewPages.map((p) => `./webview/${p}/**`),
    message: 'webview/common is what the pages share: it imports no page.',
  },
].filter((zone) => zone.from.length > 0); // a feature with one capability has no neighbour to refuse

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
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      ...restricted(...zodPaths),
      // A function longer than a screen does several things: name each one.
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    files: [
      'src/api/**/*.ts',
      'src/shared/**/*.ts',
      'src/files/**/*.ts',
      'src/contracts/**/*.ts',
      'src/**/core/**/*.ts',
      'webview/**/*.ts',
      'webview/**/*.tsx',
    ],
    rules: noVscode,
  },
  { files: ['src/shared/zod.ts'], rules: restricted(vscodePath) },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/log.ts'],
    rules: { 'no-console': 'error' },
  },
  // A setting's layers are read in one place: `inspect().globalValue` merges the user's settings
  // with the remote machine's, which a dev container's repository writes (src/shared/settingLayers.ts).
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/userSettings.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='inspect']",
          message:
            "Read a setting's layers through src/platform/userSettings.ts (settingLayers, userValue): inspect().globalValue includes the remote machine's settings, which a dev container writes.",
        },
      ],
    },
  },
  // Formatting is prettier's (checked by `npm run format:check`); lint keeps to meaning.
  prettier,
);
