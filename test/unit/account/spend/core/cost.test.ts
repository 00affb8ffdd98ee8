// The cost of an answer and of a clip, and the line the video confirmations show.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { USD, formatQuota, unitFromStatus } from '../../../../../src/account/balance/core/money';
import type { ModelPrice } from '../../../../../src/account/pricing/core/pricing';
import { answerCost, costText, videoCost, videoPriceLine } from '../../../../../src/account/spend/core/cost';

const chat: ModelPrice = { model: 'gw-reasoner', source: 'gateway', input: 2, output: 8, cachedInput: 0.2 };

void describe('answerCost', () => {
  void it('usage × price, cached prompt tokens at their own price, rounded once', () => {
    const c = answerCost(
      { prompt_tokens: 100, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 50 } },
      chat,
    );
    assert.deepEqual(c, { quota: 50 * 2 + 50 * 0.2 + 10 * 8, estimate: false });
  });

  void it('no price or no usage: marked estimate, no figure', () => {
    assert.deepEqual(answerCost({ prompt_tokens: 1 }, undefined), { estimate: true, reason: 'no-price' });
    assert.deepEqual(answerCost(undefined, chat), { estimate: true, reason: 'no-usage' });
    assert.equal(costText(answerCost(undefined, chat), USD), '?');
  });

  void it('a per-call price needs no usage; hostile counts count as 0', () => {
    assert.deepEqual(answerCost(undefined, { model: 'm', source: 'settings', perCall: 1000 }), {
      quota: 1000,
      estimate: false,
    });
    assert.equal(answerCost({ prompt_tokens: -5, completion_tokens: Number.NaN }, chat).quota, 0);
  });
});

void describe('videoCost and the confirmation line', () => {
  void it('seconds × price: "about ¥0.80: 4 s, 720p, vendor-image-video"', () => {
    const cny = unitFromStatus({ displayType: 'CNY', quotaPerUnit: 500000, usdExchangeRate: 8 });
    const c = videoCost(4, { model: 'vendor-image-video', source: 'gateway', perCall: 12_500 });
    assert.equal(c.quota, 50_000);
    assert.equal(
      videoPriceLine(c, cny, { seconds: 4, resolution: '720p', model: 'vendor-image-video' }),
      'about ¥0.80: 4 s, 720p, vendor-image-video',
    );
    assert.equal(formatQuota(c.quota!, USD), '$0.10');
  });

  void it('no price: no line', () => {
    const c = videoCost(4, undefined);
    assert.equal(c.estimate, true);
    assert.equal(videoPriceLine(c, USD, { seconds: 4, model: 'x' }), undefined);
  });
});
