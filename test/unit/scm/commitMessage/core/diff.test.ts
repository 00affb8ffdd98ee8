// A diff cut into files and reduced to a token budget (src/scm/commitMessage/core/diff.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitDiff, parseDiff, summaryLine } from '../../../../../src/scm/commitMessage/core/diff';
import { rawTextTokens } from '../../../../../src/shared/tokens';
import { fileDiff } from '../../../../support/gitDiff';

void test('a diff is cut into its files with status, counts and hunk contexts', () => {
  const diff = [
    fileDiff('src/a.ts', 2),
    'diff --git a/new.md b/new.md\nnew file mode 100644\nindex 0000000..3333333\n--- /dev/null\n+++ b/new.md\n@@ -0,0 +1 @@\n+# Title',
    'diff --git a/old name.txt b/new name.txt\nsimilarity index 100%\nrename from old name.txt\nrename to new name.txt',
    'diff --git "a/caf\\"e.txt" "b/caf\\"e.txt"\ndeleted file mode 100644\n--- a/caf"e.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone',
    'diff --git a/logo.png b/logo.png\nBinary files a/logo.png and b/logo.png differ',
  ].join('\n');
  const files = parseDiff(diff + '\n');
  assert.deepEqual(
    files.map((f) => [f.path, f.status, f.additions, f.deletions]),
    [
      ['src/a.ts', 'modified', 2, 1],
      ['new.md', 'added', 1, 0],
      ['new name.txt', 'renamed', 0, 0],
      ['caf"e.txt', 'deleted', 0, 1],
      ['logo.png', 'binary', 0, 0],
    ],
  );
  assert.equal(files[2]!.oldPath, 'old name.txt');
  assert.deepEqual(files[0]!.contexts, ['function main()']);
  assert.equal(files.map((f) => f.text).join('\n'), diff, 'the files together are the diff again');
  assert.equal(summaryLine(files[0]!), '- src/a.ts: modified, +2 -1 (in: function main())');
  assert.equal(summaryLine(files[2]!), '- old name.txt -> new name.txt: renamed, +0 -0');
  assert.equal(summaryLine(files[4]!), '- logo.png: binary');
});

void test('a diff that fits is sent whole', () => {
  const files = parseDiff([fileDiff('a.ts', 3), fileDiff('b.ts', 3)].join('\n'));
  const fitted = fitDiff(files, 10_000, rawTextTokens);
  assert.deepEqual(fitted.summarised, []);
  assert.equal(fitted.text, files.map((f) => f.text).join('\n'));
});

void test('a large diff keeps the small files whole and summarises the rest, within the budget', () => {
  const files = parseDiff(
    [
      fileDiff('small.ts', 2),
      fileDiff('huge.lock', 5000, 'lockfile'),
      fileDiff('big.ts', 800),
      fileDiff('tiny.md', 1),
    ].join('\n'),
  );
  const budget = 1500;
  const fitted = fitDiff(files, budget, rawTextTokens);
  assert.ok(rawTextTokens(fitted.text) <= budget, `${rawTextTokens(fitted.text)} tokens > ${budget}`);
  assert.deepEqual(fitted.summarised, ['huge.lock', 'big.ts']);
  assert.deepEqual(fitted.omitted, []);
  assert.match(fitted.text, /\+const line1 = 1;/, 'the small files keep their lines');
  assert.match(fitted.text, /^- huge\.lock: modified, \+5000 -1 \(in: lockfile\)$/m);
  assert.match(fitted.text, /^- big\.ts: modified, \+800 -1/m);
  assert.ok(fitted.text.indexOf('small.ts') < fitted.text.indexOf('tiny.md'), 'whole files keep their order');
});

void test('when even the summary lines do not fit, the last files are counted and named as omitted', () => {
  const files = parseDiff(Array.from({ length: 400 }, (_, i) => fileDiff(`pkg/file${i}.ts`, 50)).join('\n'));
  const budget = 600;
  const fitted = fitDiff(files, budget, rawTextTokens);
  assert.ok(rawTextTokens(fitted.text) <= budget, `${rawTextTokens(fitted.text)} tokens > ${budget}`);
  assert.ok(fitted.summarised.length > 10);
  assert.equal(fitted.summarised.length + fitted.omitted.length, 400);
  assert.match(fitted.text, new RegExp(`… and ${fitted.omitted.length} more files$`));
});
