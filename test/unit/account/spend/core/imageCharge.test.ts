// An image request's price before it is sent: the per-image price × n (the local gateway's
// gpt-image-1 is $0.04 per image), the confirmAbove limit, and why a price is unknown.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { USD, unitFromStatus } from '../../../../../src/account/balance/core/money';
import type { ModelPrice } from '../../../../../src/account/pricing/core/pricing';
import { imageCost, quoteImages } from '../../../../../src/account/spend/core/imageCharge';
import { UsageLedger } from '../../../../../src/account/spend/core/ledger';

const CNY = unitFromStatus({ displayType: 'CNY', quotaPerUnit: 500_000, usdExchangeRate: 8 });
// $0.04 per image at 500000 quota per dollar.
const perImage: ModelPrice = { model: 'gpt-image-1', source: 'gateway', perCall: 20_000 };

void describe('image prices', () => {
  void it('per image × n, with size and quality named in the line', () => {
    const q = quoteImages({ model: 'gpt-image-1', images: 3, size: '1024x1024', quality: 'high' }, perImage, USD, 0);
    assert.ok(q.ok);
    assert.equal(q.quote.quota, 60_000);
    assert.equal(q.quote.amount, '$0.12');
    assert.equal(q.quote.line, 'about $0.12: 3 image(s) × $0.04, 1024x1024, high, gpt-image-1');
    assert.equal(q.quote.above, undefined);
  });

  void it('n left out, zero or not a number is priced as one image; the unit is the gateway’s', () => {
    for (const images of [undefined, 0, Number.NaN]) {
      const q = quoteImages({ model: 'gpt-image-1', ...(images !== undefined ? { images } : {}) }, perImage, CNY, 0);
      assert.equal(q.ok && q.quote.quota, 20_000);
      assert.equal(q.ok && q.quote.amount, '¥0.32');
    }
  });

  void it('above confirmAbove names the limit', () => {
    const q = quoteImages({ model: 'gpt-image-1', images: 4 }, perImage, USD, 0.1);
    assert.equal(q.ok && q.quote.above, '$0.10');
  });

  void it('no price, or a per-token price (the chat form), is unknown with why; never a guess', () => {
    const none = quoteImages({ model: 'x-image' }, undefined, USD, 1);
    assert.match(!none.ok ? none.why : '', /lists no price for x-image/);
    const perToken: ModelPrice = { model: 'gemini-2.5-flash-image', source: 'gateway', input: 1, output: 3 };
    const tok = quoteImages({ model: 'gemini-2.5-flash-image' }, perToken, USD, 0);
    assert.match(!tok.ok ? tok.why : '', /priced per token, so the cost is known only after the answer/);
    assert.deepEqual(imageCost(2, perToken), { estimate: true, reason: 'no-price' });
    assert.deepEqual(imageCost(2, perImage), { quota: 40_000, estimate: false });
  });

  void it('the ledger counts images as their own kind, priced or not, and the CSV has the column', async () => {
    const store = new Map<string, unknown>();
    const storage = {
      get: <T>(k: string) => store.get(k) as T,
      update: (k: string, v: unknown) => {
        store.set(k, v);
        return Promise.resolve();
      },
    };
    const l = new UsageLedger(storage as never, () => Date.parse('2026-11-25T12:00:00'));
    await l.recordImages({
      gateway: 'https://gw.example/v1',
      model: 'gpt-image-1',
      images: 2,
      cost: imageCost(2, perImage),
      unit: USD,
    });
    await l.recordImages({
      gateway: 'https://gw.example/v1',
      model: 'gpt-image-1',
      images: 1,
      cost: imageCost(1, undefined),
      unit: USD,
    });
    const [r] = l.rows();
    assert.equal(r!.images, 3);
    assert.equal(r!.clips, 0);
    assert.equal(r!.costQuota, 40_000);
    assert.equal(r!.unpriced, 1);
    const [head, line] = l.toCsv().trim().split('\r\n');
    assert.match(head!, /,images$/);
    assert.match(line!, /,3$/);
  });
});
