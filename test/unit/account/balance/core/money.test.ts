// Quota units to the figure on screen: every display type of new-api, in integer arithmetic, so
// no float residue reaches the status bar.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cleanSymbol,
  formatQuota,
  quotaFromDisplay,
  toMinor,
  unitFromStatus,
  USD,
} from '../../../../../src/account/balance/core/money';

const cny = unitFromStatus({ displayType: 'CNY', quotaPerUnit: 500000, usdExchangeRate: 7.3 });
const tokens = unitFromStatus({ displayType: 'TOKENS', quotaPerUnit: 500000 });

void describe('formatQuota: each display type', () => {
  void it('USD: quota / quota_per_unit dollars, two decimals', () => {
    assert.equal(formatQuota(12_500_000, USD), '$25.00');
    assert.equal(formatQuota(1_605_000, USD), '$3.21');
    assert.equal(formatQuota(0, USD), '$0.00');
  });

  void it('CNY: dollars times the exchange rate, without float residue', () => {
    const q = quotaFromDisplay(12.34, cny);
    assert.equal(formatQuota(q, cny), '¥12.34');
    // 7.3 is not exact in binary: the figure still has exactly two decimals.
    assert.equal(formatQuota(500_000, cny), '¥7.30');
    assert.equal(formatQuota(3 * quotaFromDisplay(0.1, USD), USD), '$0.30');
  });

  void it('TOKENS: the quota itself, shortened to K/M/B with one decimal', () => {
    assert.equal(formatQuota(1_234_567, tokens), '1.2M tokens');
    assert.equal(formatQuota(2_000_000, tokens), '2M tokens');
    assert.equal(formatQuota(12_345, tokens), '12.3K tokens');
    assert.equal(formatQuota(850, tokens), '850 tokens');
    assert.equal(formatQuota(3_500_000_000, tokens), '3.5B tokens');
  });

  void it('CUSTOM: the site symbol and its rate per dollar', () => {
    const eur = unitFromStatus({ displayType: 'CUSTOM', quotaPerUnit: 500000, customSymbol: '€', customRate: 0.92 });
    assert.equal(formatQuota(500_000, eur), '€0.92');
  });

  void it('another quota_per_unit changes the figure (1000 quota per dollar)', () => {
    const u = unitFromStatus({ displayType: 'USD', quotaPerUnit: 1000 });
    assert.equal(formatQuota(24, u), '$0.02');
    assert.equal(formatQuota(24, u, { precise: true }), '$0.024');
  });

  void it('precise: small costs keep up to four decimals; below that it says so', () => {
    assert.equal(formatQuota(600, USD, { precise: true }), '$0.0012');
    assert.equal(formatQuota(400_000, USD, { precise: true }), '$0.80');
    assert.equal(formatQuota(24, USD, { precise: true }), '<$0.0001');
    assert.equal(formatQuota(5_000_000, USD, { precise: true }), '$10.00');
  });

  void it('rounds half away from zero in integers', () => {
    assert.equal(toMinor(2_500, USD, 2), 1n); // $0.005 -> 1 cent
    assert.equal(toMinor(2_499, USD, 2), 0n);
    assert.equal(formatQuota(-1_605_000, USD), '-$3.21');
  });
});

void describe('unitFromStatus and symbols', () => {
  void it('bad rates and quota_per_unit fall back to the defaults', () => {
    const u = unitFromStatus({ displayType: 'CNY', quotaPerUnit: -5, usdExchangeRate: Number.NaN });
    assert.equal(u.quotaPerUnit, 500000);
    assert.equal(u.rateMicro, 7_300_000);
    assert.equal(unitFromStatus({ displayType: 'usd', quotaPerUnit: 1e20 }).quotaPerUnit, 500000);
  });

  void it('a custom symbol loses control and direction characters and is kept short', () => {
    assert.equal(cleanSymbol('\u202eUSDT\u0007', '¤'), 'USDT');
    assert.equal(cleanSymbol('  ', '¤'), '¤');
    assert.equal(cleanSymbol('ABCDEFGHIJ', '¤'), 'ABCDEF');
  });
});
