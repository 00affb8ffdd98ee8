// scripts/packageVsix.mjs's checks over a package's file list and esbuild's metafile: what no user
// needs is named, and a file the bundles load that the .vsix lacks (a chunk left out by
// .vscodeignore, a package left to node_modules) fails the package.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { missingAtRuntime, unwantedFiles, vsceComplaints } from '../../../scripts/packageVsix.mjs';

const shipped = [
  'package.json',
  'README.md',
  'LICENSE',
  'media/chat.svg',
  'media/walkthrough/apiKey.md',
  'l10n/bundle.l10n.zh-cn.json',
  'dist/extension.mjs',
  'dist/chunks/loadChat-AB12.mjs',
  'dist/webview.js',
  'dist/webview-chunks/highlight-CD34.js',
  'dist/codicon-EF56.ttf',
];

void test('a package of bundles, media, l10n and the manifest holds nothing unwanted', () => {
  assert.deepEqual(unwantedFiles(shipped), []);
});

void test('tests, benches, fixtures, source maps and TypeScript sources are each named with why', () => {
  const found = unwantedFiles([
    ...shipped,
    'test/unit/api/client.test.ts',
    'out/test/index.js',
    'bench/results.json',
    'test/gateway/fixtures/page.html',
    'media/fixtures/sample.mp4',
    'dist/extension.mjs.map',
    'src/extension.ts',
    'webview/chat/app.tsx',
    'scripts/types.d.mts',
    '.cache/host/installed.json',
  ]);
  assert.deepEqual(found, [
    'test/unit/api/client.test.ts (a test file)',
    'out/test/index.js (a test file)',
    'bench/results.json (a bench file)',
    'test/gateway/fixtures/page.html (a test file)',
    'media/fixtures/sample.mp4 (a fixture)',
    'dist/extension.mjs.map (a source map)',
    'src/extension.ts (a source file)',
    'webview/chat/app.tsx (a source file)',
    'scripts/types.d.mts (a TypeScript file)',
    '.cache/host/installed.json (a development folder)',
  ]);
});

/** A metafile of the host build: the entry, one chunk, vscode and node built-ins external. */
function hostMeta(extraImports: { path: string; kind: string; external?: boolean }[] = []) {
  return {
    outputs: {
      'dist/extension.mjs': {
        imports: [
          { path: 'dist/chunks/loadChat-AB12.mjs', kind: 'dynamic-import' },
          { path: 'vscode', kind: 'import-statement', external: true },
          { path: 'node:fs', kind: 'import-statement', external: true },
          { path: 'crypto', kind: 'require-call', external: true },
          ...extraImports,
        ],
      },
      'dist/chunks/loadChat-AB12.mjs': { imports: [] },
      'dist/extension.mjs.map': { imports: [] },
      // The integration tests' bundle is not the product's.
      'out/test/index.js': { imports: [{ path: 'mocha', kind: 'require-call', external: true }] },
    },
  };
}

void test('every built file in the package and only vscode and built-ins external: nothing is missing', () => {
  assert.deepEqual(missingAtRuntime([hostMeta()], shipped), []);
});

void test('a chunk .vscodeignore leaves out fails, naming the file', () => {
  const list = shipped.filter((f) => f !== 'dist/chunks/loadChat-AB12.mjs');
  assert.deepEqual(missingAtRuntime([hostMeta()], list), [
    'dist/chunks/loadChat-AB12.mjs is built but not in the .vsix (.vscodeignore)',
  ]);
});

void test('a package left external to the bundle fails: the .vsix has no node_modules', () => {
  const meta = hostMeta([{ path: 'linkedom', kind: 'dynamic-import', external: true }]);
  assert.deepEqual(missingAtRuntime([meta], shipped), [
    'dist/extension.mjs imports "linkedom" from node_modules at run time, which the .vsix does not ship',
  ]);
});

void test("an optional package required in a try (linkedom's canvas) is allowed; imported outright it is not", () => {
  const optional = hostMeta([{ path: 'canvas', kind: 'require-call', external: true }]);
  assert.deepEqual(missingAtRuntime([optional], shipped), []);
  const outright = hostMeta([{ path: 'canvas', kind: 'import-statement', external: true }]);
  assert.equal(missingAtRuntime([outright], shipped).length, 1);
});

void test("vsce's warnings and errors are picked out of its output; its file listing is not", () => {
  const out = [
    "Executing prepublish script 'npm run vscode:prepublish'...",
    ' INFO  Files included in the VSIX:',
    'dist/warnings-chunk.mjs',
    " WARNING  A 'repository' field is missing from the 'package.json' manifest file.",
    ' ERROR  Make sure to edit the README.md file before you package or publish your extension.',
    ' DONE  Packaged: dist/gateway-studio.vsix (173 files, 2.03 MB)',
  ].join('\n');
  assert.deepEqual(vsceComplaints(out), [
    " WARNING  A 'repository' field is missing from the 'package.json' manifest file.",
    ' ERROR  Make sure to edit the README.md file before you package or publish your extension.',
  ]);
});
