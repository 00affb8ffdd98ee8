// Money the host and the chat page share: integer arithmetic to the text, and the rule for
// adding two quotas (same unit only).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatMoney, sameUnit, tokenFigure, toMinor, type MoneyUnit } from '../../../src/shared/money';

const usd: MoneyUnit = { kind: 'USD', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '$' };
const cny: MoneyUnit = { kind: 'CNY', quotaPerUnit: 500_000, rateMicro: 7_300_000, symbol: '¥' };
const tokens: MoneyUnit = { kind: 'TOKENS', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '' };
const words = { tokens: (f: string) => `${f} tokens` };

void describe('shared money', () => {
  void it('formats without floating-point residue, precise below one unit', () => {
    assert.equal(formatMoney(1_605_000, usd, words), '$3.21');
    // 0.1 + 0.2 in dollars, added as quota units first.
    assert.equal(formatMoney(50_000 + 100_000, usd, { ...words, precise: true }), '$0.30');
    assert.equal(formatMoney(615, usd, { ...words, precise: true }), '$0.0012');
    assert.equal(formatMoney(1, usd, { ...words, precise: true }), '<$0.0001');
    assert.equal(formatMoney(845_205, cny, words), '¥12.34');
    assert.equal(formatMoney(1_234_567, tokens, words), '1.2M tokens');
    assert.equal(tokenFigure(850), '850');
    assert.equal(toMinor(500_000, usd, 2), 100n);
  });

  void it('adds only quotas of the same unit', () => {
    assert.ok(sameUnit(usd, { ...usd }));
    assert.ok(!sameUnit(usd, cny));
    assert.ok(!sameUnit(usd, { ...usd, quotaPerUnit: 1000 }));
  });
});
