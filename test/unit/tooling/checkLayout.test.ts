// scripts/checkLayout.mjs over small trees in a temp folder: each rule refuses its violation and
// the real tree passes.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { layoutProblems as problemsOf } from '../../../scripts/checkLayout.mjs';
const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'gws-layout-'));
  roots.push(root);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
  return root;
}
const ok = {
  'src/extension.ts': 'x\n',
  'src/api/transport/http.ts': 'x\n',
  'src/chat/vscode/register.ts': 'x\n',
  'src/chat/tools/core/fs.ts': 'x\n',
  'src/chat/tools/vscode/host.ts': 'x\n',
  'webview/chat/main.ts': 'x\n',
  'test/unit/api/transport/http.test.ts': 'x\n',
  'test/unit/chat/tools/core/fs.edits.test.ts': 'x\n',
};

void test('a tree where every file is in its place has no problems', () => {
  assert.deepEqual(problemsOf(tree(ok)), []);
});

void test('a source file outside a layer folder is refused, in src and in the webview', () => {
  const p = problemsOf(
    tree({ ...ok, 'src/chat/helpers.ts': 'x\n', 'src/chat/tools/util.ts': 'x\n', 'webview/x.ts': 'x\n' }),
  );
  assert.equal(p.length, 3, p.join('\n'));
  assert.match(p.join('\n'), /src\/chat\/helpers\.ts: outside a layer folder/);
  assert.match(p.join('\n'), /src\/chat\/tools\/util\.ts: outside a layer folder/);
  assert.match(p.join('\n'), /webview\/x\.ts: outside a layer folder/);
});

void test('a file over 400 lines is refused; 400 lines pass', () => {
  const p = problemsOf(
    tree({ ...ok, 'src/api/transport/http.ts': 'x\n'.repeat(400), 'src/api/big.ts': 'x\n'.repeat(401) }),
  );
  assert.deepEqual(
    p.filter((l) => l.includes('line limit')),
    ['src/api/big.ts: 401 lines, over the 400-line limit'],
  );
});

void test('a core unit without a test is refused until its gap is allowed with a reason', () => {
  const files = { ...ok, 'src/chat/tools/core/glob.ts': 'x\n' };
  assert.match(problemsOf(tree(files)).join('\n'), /src\/chat\/tools\/core\/glob\.ts: a core unit without/);
  const allowed = {
    ...files,
    'test/unit/untested.json': JSON.stringify({ 'chat/tools/core/glob': 'exercised by fs.test.ts' }),
  };
  assert.deepEqual(problemsOf(tree(allowed)), []);
  const noReason = { ...files, 'test/unit/untested.json': JSON.stringify({ 'chat/tools/core/glob': '' }) };
  assert.match(problemsOf(tree(noReason)).join('\n'), /needs a reason/);
});

void test('an allowance whose test now exists, or whose unit is gone, is refused so the list only shrinks', () => {
  const p = problemsOf(
    tree({
      ...ok,
      'test/unit/untested.json': JSON.stringify({ 'api/transport/http': 'was untested', 'api/gone': 'moved away' }),
    }),
  );
  assert.match(p.join('\n'), /"api\/transport\/http" has a test now/);
  assert.match(p.join('\n'), /"api\/gone" is not a core unit/);
});

void test('a unit test named after no source file is refused (tests mirror src); tooling tests are exempt', () => {
  const p = problemsOf(
    tree({ ...ok, 'test/unit/chat-misc.test.ts': 'x\n', 'test/unit/tooling/gateway.test.ts': 'x\n' }),
  );
  assert.deepEqual(p, [
    'test/unit/chat-misc.test.ts: names no source file (tests mirror src: test/unit/<path under src>.test.ts, or test/unit/webview/<path under webview>.test.ts)',
  ]);
});

void test('any folder of webview/ is a page; a stylesheet there is held to the line limit too', () => {
  const p = problemsOf(
    tree({
      ...ok,
      'webview/newpage/main.ts': 'x\n',
      'webview/chat/styles.css': 'a {}\n'.repeat(401),
      'webview/chat/styles/base.css': 'a {}\n'.repeat(400),
      'webview/loose.css': 'a {}\n',
    }),
  );
  assert.deepEqual(p, [
    "webview/loose.css: outside a layer folder: the webview's files go in a page's folder, webview/<page>/ (or webview/common/)",
    'webview/chat/styles.css: 401 lines, over the 400-line limit',
  ]);
});

void test('a page model needs its test, mirrored under test/unit/webview/, or an allowance', () => {
  const files = { ...ok, 'webview/chat/models/composer.ts': 'x\n' };
  assert.deepEqual(problemsOf(tree(files)), [
    'webview/chat/models/composer.ts: a page model without test/unit/webview/chat/models/composer.test.ts (write one, or allow the gap with a reason in test/unit/untested.json)',
  ]);
  assert.deepEqual(problemsOf(tree({ ...files, 'test/unit/webview/chat/models/composer.send.test.ts': 'x\n' })), []);
  const allowed = {
    ...files,
    'test/unit/untested.json': JSON.stringify({ 'webview/chat/models/composer': 'shown by the browser tests' }),
  };
  assert.deepEqual(problemsOf(tree(allowed)), []);
  assert.match(
    problemsOf(tree({ ...ok, 'test/unit/webview/chat/gone.test.ts': 'x\n' })).join('\n'),
    /test\/unit\/webview\/chat\/gone\.test\.ts: names no source file/,
  );
});

void test('the repository itself passes', () => {
  assert.deepEqual(problemsOf(resolve(__dirname, '..', '..', '..')), []);
});
