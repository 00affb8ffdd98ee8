// The cost the chat stores on an answer: exact from the gateway's usage, an estimate from the
// tokens counted here when there is none, no figure without a price.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { USD } from '../../../../../src/account/balance/core/money';
import type { ModelPrice } from '../../../../../src/account/pricing/core/pricing';
import { cachedShare, priceOfAnswer, quotaOfDollars } from '../../../../../src/account/spend/core/answerPrice';

const price: ModelPrice = { model: 'gw-reasoner', source: 'gateway', input: 2, output: 8, cachedInput: 0.2 };

void describe('priceOfAnswer', () => {
  void it("the gateway's usage × price, cached prompt tokens at their price: not an estimate", () => {
    const c = priceOfAnswer(
      { usage: { prompt_tokens: 100, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 50 } } },
      price,
      USD,
    );
    assert.deepEqual(c, {
      quota: 50 * 2 + 50 * 0.2 + 10 * 8,
      unit: USD,
      estimate: false,
      // The cost line's tooltip names where the price came from (issue 43).
      priceFrom: 'gateway',
      cached: { percent: 50, saved: Math.round(50 * (2 - 0.2)) },
    });
  });

  void it('the cached share and its saving: whole percent, the saving only at a known cheaper cached price', () => {
    const usage = (prompt: number, cached?: number) => ({
      prompt_tokens: prompt,
      completion_tokens: 1,
      ...(cached !== undefined ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
    });
    assert.deepEqual(cachedShare(usage(3000, 2048), price), { percent: 68, saved: 3686 });
    assert.deepEqual(cachedShare(usage(3000, 2048), { ...price, cachedInput: undefined }), { percent: 68 });
    assert.deepEqual(cachedShare(usage(3000, 2048), { ...price, cachedInput: 2 }), { percent: 68 });
    assert.deepEqual(cachedShare(usage(3000, 2048), undefined), { percent: 68 });
    // More cached than the prompt (a relay counting the prompt without its cached part): at most all of it.
    assert.deepEqual(cachedShare(usage(100, 5000), price), { percent: 100, saved: 180 });
    for (const u of [usage(3000), usage(3000, 0), usage(0, 0), undefined])
      assert.equal(cachedShare(u, price), undefined, JSON.stringify(u));
    // The gateway's own figure wins, and the share is still said.
    const reported = priceOfAnswer(
      { usage: usage(1000, 500), reported: { usd: 0.01, from: 'usage.cost' } },
      price,
      USD,
    );
    assert.equal(reported.cached?.percent, 50);
  });

  void it('no usage: the counted tokens give a figure marked as an estimate', () => {
    const c = priceOfAnswer({ estimated: { prompt_tokens: 10, completion_tokens: 5 } }, price, USD);
    assert.deepEqual(c, { quota: 60, unit: USD, estimate: true, reason: 'no-usage', priceFrom: 'gateway' });
    // Nothing counted either: the mark alone.
    assert.deepEqual(priceOfAnswer({}, price, USD), { unit: USD, estimate: true, reason: 'no-usage' });
  });

  void it('no price: no figure, whatever the usage says', () => {
    assert.deepEqual(priceOfAnswer({ usage: { prompt_tokens: 1, completion_tokens: 1 } }, undefined, USD), {
      unit: USD,
      estimate: true,
      reason: 'no-price',
    });
  });

  void it('a per-call price needs no usage', () => {
    const c = priceOfAnswer({}, { model: 'x', source: 'settings', perCall: 1234 }, USD);
    assert.deepEqual(c, { quota: 1234, unit: USD, estimate: false, priceFrom: 'settings' });
  });
});

void describe("the gateway's reported cost (issue 39)", () => {
  void it('wins over usage × price and says which it is', () => {
    const c = priceOfAnswer(
      { usage: { prompt_tokens: 100, completion_tokens: 10 }, reported: { usd: 0.002, from: 'usage.cost' } },
      price,
      USD,
    );
    assert.deepEqual(c, { quota: 1000, unit: USD, estimate: false, reportedBy: 'usage.cost' });
    // No price known: the report still gives the figure.
    const h = priceOfAnswer({ reported: { usd: 0.5, from: 'x-litellm-response-cost' } }, undefined, USD);
    assert.deepEqual(h, { quota: 250_000, unit: USD, estimate: false, reportedBy: 'x-litellm-response-cost' });
    assert.equal(quotaOfDollars(1, { ...USD, quotaPerUnit: 1000 }), 1000);
  });

  void it('a hostile report (negative, absurd, a string, an unknown source) is ignored: usage × price', () => {
    for (const reported of [
      { usd: -1, from: 'usage.cost' },
      { usd: 1e9, from: 'usage.cost' },
      { usd: 'NaN', from: 'usage.cost' },
      { usd: 0.1, from: 'somewhere' },
      'free',
    ]) {
      const c = priceOfAnswer({ usage: { prompt_tokens: 10, completion_tokens: 0 }, reported }, price, USD);
      assert.deepEqual(c, { quota: 20, unit: USD, estimate: false, priceFrom: 'gateway' }, JSON.stringify(reported));
    }
  });
});
