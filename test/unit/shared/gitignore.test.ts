import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gitignoreMatcher, ignoredFolderNames } from '../../../src/shared/gitignore';

void test('a name without a slash is ignored at any depth, with everything under it', () => {
  const ignored = gitignoreMatcher('node_modules/\n*.log\n');
  assert.equal(ignored('node_modules/x/index.js'), true);
  assert.equal(ignored('packages/a/node_modules/b.js'), true);
  assert.equal(ignored('logs/today.log'), true);
  assert.equal(ignored('src/index.ts'), false);
  assert.equal(ignored('src/log.ts'), false);
});

void test('a leading or inner slash anchors the pattern at the root', () => {
  const ignored = gitignoreMatcher('/build\ndocs/generated\n');
  assert.equal(ignored('build/out.js'), true);
  assert.equal(ignored('src/build/keep.js'), false);
  assert.equal(ignored('docs/generated/a.md'), true);
  assert.equal(ignored('x/docs/generated/a.md'), false);
});

void test('negation brings a file back; the last matching rule wins; comments and blanks are skipped', () => {
  const ignored = gitignoreMatcher('# secrets\n\n*.env\n!example.env\n');
  assert.equal(ignored('prod.env'), true);
  assert.equal(ignored('config/example.env'), false);
});

void test('** matches any number of folders, ? one character, [..] a class', () => {
  const ignored = gitignoreMatcher('a/**/z.txt\nfile?.tmp\n[ab].bin\n');
  assert.equal(ignored('a/z.txt'), true);
  assert.equal(ignored('a/b/c/z.txt'), true);
  assert.equal(ignored('file1.tmp'), true);
  assert.equal(ignored('file12.tmp'), false);
  assert.equal(ignored('a.bin'), true);
  assert.equal(ignored('c.bin'), false);
});

void test('plain folder names are offered for excluding early; patterns with wildcards are not', () => {
  assert.deepEqual(ignoredFolderNames('node_modules/\n/dist\n*.log\n.venv\nsrc/gen\n'), [
    'node_modules',
    'dist',
    '.venv',
  ]);
});
