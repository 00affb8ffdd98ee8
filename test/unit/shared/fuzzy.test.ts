import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  charMask,
  fuzzyFilter,
  fuzzyNormalize,
  fuzzyScore,
  fuzzyScorePrepared,
  fuzzyTarget,
} from '../../../src/shared/fuzzy';

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

void test('the character mask only rejects texts that cannot match: the same results with and without it', () => {
  // A seeded mix of letters, digits that share mask bits (2 and 7), separators and non-ASCII.
  const alphabet = 'abcxyz2779/._-éß';
  let seed = 11;
  const pick = (n: number): string => {
    let out = '';
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      out += alphabet[seed % alphabet.length];
    }
    return out;
  };
  let rejected = 0;
  for (let i = 0; i < 2000; i++) {
    const text = pick(1 + (i % 12));
    const q = fuzzyNormalize(pick(1 + (i % 3)));
    const t = fuzzyTarget(text);
    const withMask = fuzzyScorePrepared(q, t);
    const withoutMask = fuzzyScorePrepared(q, { ...t, mask: -1 });
    assert.equal(withMask, withoutMask, `"${q}" in "${text}"`);
    if ((t.mask & charMask(q)) !== charMask(q)) rejected++;
  }
  assert.ok(rejected > 100, `the mask rejected ${rejected} of 2000 pairs by itself`);
});
