import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuzzyFilter, fuzzyScore } from '../../../src/shared/fuzzy';

void test('characters must appear in order; case does not matter', () => {
  assert.ok(fuzzyScore('RdMe', 'README.md') >= 0);
  assert.equal(fuzzyScore('emdr', 'README.md'), -1);
  assert.equal(fuzzyScore('', 'anything'), 0);
});

void test('a match in the file name beats the same letters scattered through the folders', () => {
  const files = ['src/chat/view/controller.ts', 'src/contr/oller.ts', 'test/controller.test.ts'];
  assert.deepEqual(
    fuzzyFilter('controller', files, (s) => s),
    ['src/chat/view/controller.ts', 'test/controller.test.ts', 'src/contr/oller.ts'],
  );
});

void test('word starts score higher than letters inside words', () => {
  assert.equal(fuzzyFilter('cm', ['src/xcxmx.ts', 'src/chat/mentions.ts'], (s) => s)[0], 'src/chat/mentions.ts');
  assert.ok(fuzzyScore('mentions', 'src/chat/core/mentions.ts') > fuzzyScore('mentions', 'src/xmentionsx.ts'));
});

void test('the filter keeps only matches and stops at the limit', () => {
  const many = Array.from({ length: 100 }, (_, i) => `file${i}.ts`);
  assert.equal(fuzzyFilter('file', many, (s) => s, 10).length, 10);
  assert.deepEqual(
    fuzzyFilter('zz', many, (s) => s),
    [],
  );
});
