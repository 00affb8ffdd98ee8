// scripts/bundleSizes.mjs over a small fake dist/: the host's budget counts the entry and the
// chunks it imports statically, not those reached by import(), and an entry over it fails.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { bundleReport, HOST_BUDGET_KB, loadedWith, PAGE_BUDGET_KB } from '../../../scripts/bundleSizes.mjs';

const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function dist(entryPad: number, pagePad = 10): string {
  const root = mkdtempSync(join(tmpdir(), 'gws-bundles-'));
  roots.push(root);
  mkdirSync(join(root, 'chunks'));
  mkdirSync(join(root, 'webview-chunks'));
  const files: Record<string, string> = {
    // esbuild's minified ESM: a named import, a bare import, and a dynamic one.
    'extension.mjs': `import{a as b}from"./chunks/shared-A.mjs";import"./chunks/side-B.mjs";const l=()=>import("./chunks/lazy-C.mjs");${'x'.repeat(entryPad)}`,
    'chunks/shared-A.mjs': 'import{c}from"./runtime-D.mjs";export const a=1;',
    'chunks/side-B.mjs': 'globalThis.s=1;',
    'chunks/lazy-C.mjs': `import{a}from"./shared-A.mjs";export const big="${'y'.repeat(300 * 1024)}";`,
    'chunks/runtime-D.mjs': 'export const c=1;',
    // The chat page: the same shape, .js files under webview-chunks/.
    'webview.js': `import{m}from"./webview-chunks/chunk-M.js";const h=()=>import("./webview-chunks/highlight-H.js");${'x'.repeat(pagePad)}`,
    'webview-chunks/chunk-M.js': `export const m="${'m'.repeat(100 * 1024)}";`,
    'webview-chunks/highlight-H.js': `import{m}from"./chunk-M.js";export const big="${'y'.repeat(150 * 1024)}";`,
    'gallery.js': 'x',
  };
  for (const [f, text] of Object.entries(files)) writeFileSync(join(root, f), text);
  return root;
}

void test('what activation loads: the entry and its static imports, transitively; not import() targets', () => {
  const root = dist(10);
  const names = loadedWith(join(root, 'extension.mjs')).map((f) => f.slice(root.length + 1));
  assert.deepEqual(names.sort(), ['chunks/runtime-D.mjs', 'chunks/shared-A.mjs', 'chunks/side-B.mjs', 'extension.mjs']);
});

void test('a lazy chunk over the budget passes; the host at activation over it fails', () => {
  // Given relative, as .ci/run gives `dist`.
  const small = bundleReport(relative(process.cwd(), dist(10)));
  assert.equal(small.over, false, small.lines.join('\n'));
  assert.match(small.lines.join('\n'), /lazy-C\.mjs: 300\.\d KB \(on first use\)/);
  assert.match(small.lines.join('\n'), /runtime-D\.mjs: .* \(at activation\)/);
  const big = bundleReport(dist(HOST_BUDGET_KB * 1024 + 1));
  assert.equal(big.over, true, big.lines.join('\n'));
  assert.match(big.lines[0] ?? '', /^host at activation: .*OVER/);
});

void test('the chat page counts what loads before its first paint: its entry and static chunks, not import() targets', () => {
  const small = bundleReport(dist(10));
  const text = small.lines.join('\n');
  assert.equal(small.over, false, text);
  assert.match(
    text,
    /chat page at first paint: 100\.\d KB \(budget 200 KB: ok\): dist\/webview\.js 0\.1 KB and 1 chunk/,
  );
  assert.match(text, /webview-chunks\/highlight-H\.js: 150\.\d KB \(on first use\)/);
  assert.match(text, /webview-chunks\/chunk-M\.js: 100\.0 KB \(at first paint\)/);
  // 100 KB in the static chunk, so an entry of the rest of the budget is just over it.
  const big = bundleReport(dist(10, (PAGE_BUDGET_KB - 100) * 1024));
  assert.equal(big.over, true, big.lines.join('\n'));
  assert.match(big.lines.join('\n'), /chat page at first paint: .*OVER/);
});
