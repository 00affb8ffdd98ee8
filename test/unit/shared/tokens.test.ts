// The shared token estimate (src/shared/tokens.ts): the chat's meter and the commit message's
// diff budget count by the same rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KEPT_COUNT_LENGTH, rawTextTokens } from '../../../src/shared/tokens';

void test('Latin text and code count four characters a token, CJK characters one each', () => {
  assert.equal(rawTextTokens(''), 0);
  assert.equal(rawTextTokens('abcd'), 1);
  assert.equal(rawTextTokens('abcde'), 2);
  assert.equal(rawTextTokens('修复登录'), 4);
  assert.equal(rawTextTokens('fix 登录'), 3);
});

void test('long texts count the same whether their count is new or kept, and beyond the kept bound', () => {
  const zh = '修复登录页面'.repeat(200); // 1,200 CJK characters
  const mixed = `${'const a = 1; '.repeat(100)}… ${'登录'.repeat(50)}`;
  assert.ok(zh.length >= KEPT_COUNT_LENGTH && mixed.length >= KEPT_COUNT_LENGTH);
  for (let round = 0; round < 2; round++) {
    assert.equal(rawTextTokens(zh), 1200, `round ${round}`);
    // 1,300 Latin characters, a space and "…" (1,302 / 4 rounded up), 100 CJK.
    assert.equal(rawTextTokens(mixed), 100 + Math.ceil((mixed.length - 100) / 4), `round ${round}`);
  }
  // The same text as another string object, and a text one character longer.
  assert.equal(rawTextTokens(`${zh.slice(0, 600)}${zh.slice(600)}`), 1200);
  assert.equal(rawTextTokens(`${zh}x`), 1201);
  // Far past the kept characters (~2M): every count is still made right, old and new.
  const many = Array.from({ length: 60 }, (_, i) => `${String(i).padStart(3, '0')}${'登'.repeat(50_000)}`);
  for (let round = 0; round < 2; round++) for (const t of many) assert.equal(rawTextTokens(t), 50_000 + 1);
});
