import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scaleAmount, totalLine } from '../../../../../src/video/base/core/price';

void test('an amount is rewritten for another quota keeping symbol, decimals and grouping', () => {
  assert.equal(scaleAmount('¥0.80', 400, 1600), '¥3.20');
  assert.equal(scaleAmount('$0.11', 100, 300), '$0.33');
  assert.equal(scaleAmount('1,200 tokens', 1200, 3600), '3,600 tokens');
});

void test("the board's total sums every clip, and says which clips have no price", () => {
  const q = { known: true as const, quota: 400, amount: '¥0.80' };
  assert.equal(totalLine([q, q, { known: true, quota: 800, amount: '¥1.60' }]), 'estimated ¥3.20 in all');
  assert.equal(totalLine([q, { known: false }]), 'estimated ¥0.80 for 1 of 2 clips; the others have no price yet');
  assert.match(totalLine([{ known: false }]) ?? '', /price unknown/);
  assert.equal(totalLine([]), undefined);
});
