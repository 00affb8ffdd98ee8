// The prices a request is quoted at for the chat's spend caps, from the account's price book.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dailyLimitAction, requestQuote } from '../../../../../src/account/spend/core/requestQuote';

const USD = { kind: 'USD', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '$' } as const;

void describe('request quote', () => {
  void it('quotes per-token prices with the answer at the output price (the input price when none)', () => {
    assert.deepEqual(requestQuote({ model: 'm', source: 'gateway', input: 2, output: 6, cachedInput: 0.5 }, USD), {
      unit: USD,
      input: 2,
      output: 6,
    });
    assert.deepEqual(requestQuote({ model: 'm', source: 'settings', input: 3 }, USD), {
      unit: USD,
      input: 3,
      output: 3,
    });
  });

  void it('quotes a per-call model by its call price, and nothing without a price', () => {
    assert.deepEqual(requestQuote({ model: 'm', source: 'gateway', perCall: 10_000 }, USD), {
      unit: USD,
      input: 0,
      output: 0,
      perCall: 10_000,
    });
    assert.equal(requestQuote(undefined, USD), undefined);
    assert.equal(requestQuote({ model: 'm', source: 'gateway', perSecond: 5 }, USD), undefined);
  });

  void it("carries today's spend when the daily limit blocks, and only a positive limit", () => {
    const price = { model: 'm', source: 'gateway' as const, input: 1 };
    assert.deepEqual(requestQuote(price, USD, { spent: 7, limit: 5 })?.daily, { spent: 7, limit: 5 });
    assert.equal(requestQuote(price, USD, { spent: 7, limit: 0 })?.daily, undefined);
  });

  void it('the daily limit blocks only when set to block; anything else notifies as before', () => {
    assert.equal(dailyLimitAction('block'), 'block');
    assert.equal(dailyLimitAction('notify'), 'notify');
    assert.equal(dailyLimitAction(undefined), 'notify');
    assert.equal(dailyLimitAction('BLOCK'), 'notify');
  });
});
