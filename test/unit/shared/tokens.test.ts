// The shared token estimate (src/shared/tokens.ts): the chat's meter and the commit message's
// diff budget count by the same rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rawTextTokens } from '../../../src/shared/tokens';

void test('Latin text and code count four characters a token, CJK characters one each', () => {
  assert.equal(rawTextTokens(''), 0);
  assert.equal(rawTextTokens('abcd'), 1);
  assert.equal(rawTextTokens('abcde'), 2);
  assert.equal(rawTextTokens('修复登录'), 4);
  assert.equal(rawTextTokens('fix 登录'), 3);
});
