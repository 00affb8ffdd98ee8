// Prices from the local gateway's /api/pricing (new-api's shape) with the group ratio, and from
// the user's settings; where each came from.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { USD, unitFromStatus } from '../../../../../src/account/balance/core/money';
import { PriceBook, parsePricing, pricesFromSettings } from '../../../../../src/account/pricing/core/pricing';
import { useGateway } from '../../../../support/helpers';

const gw = useGateway();
const pricing = async () => (await fetch(`${gw.url}/api/pricing`)).json();

void describe('parsePricing', () => {
  void it('tokens: model_ratio × group ratio per token, completion × completion_ratio, cached × cache_ratio', async () => {
    await fetch(`${gw.url}/__control/reset`, { method: 'POST' });
    gw.setAccount({ groupRatio: 0.5 });
    const r = parsePricing(await pricing(), { group: 'default', unit: USD });
    assert.ok(r.ok);
    assert.equal(r.value.groupRatio, 0.5);
    const chat = r.value.prices.find((p) => p.model === 'gw-chat')!;
    assert.deepEqual(chat, { model: 'gw-chat', source: 'gateway', input: 0.75, output: 3 });
    const reasoner = r.value.prices.find((p) => p.model === 'gw-reasoner')!;
    assert.equal(reasoner.cachedInput, 0.1);
  });

  void it('per call: model_price dollars × group ratio × quota_per_unit', async () => {
    await fetch(`${gw.url}/__control/reset`, { method: 'POST' });
    const r = parsePricing(await pricing(), { group: 'vip', unit: USD });
    assert.ok(r.ok);
    const video = r.value.prices.find((p) => p.model === 'vendor-image-video')!;
    assert.equal(video.perCall, 0.025 * 0.8 * 500000);
  });

  void it('drops entries with hostile values; an unknown group counts as 1', () => {
    const r = parsePricing(
      {
        data: [
          { model_name: 'a', model_ratio: -1 },
          { model_name: 'b', quota_type: 1, model_price: 'free' },
          { model_name: 'c', model_ratio: 1e300 },
          { model_name: 'd', model_ratio: 2 },
        ],
        group_ratio: { default: 'x' },
      },
      { group: 'default', unit: USD },
    );
    assert.ok(r.ok);
    assert.deepEqual(
      r.value.prices.map((p) => p.model),
      ['d'],
    );
    assert.equal(r.value.groupRatio, 1);
    assert.equal(r.value.dropped.length, 3);
    assert.equal(parsePricing({ success: false, message: 'off' }, { group: 'default', unit: USD }).ok, false);
  });
});

void describe('prices from settings', () => {
  void it('per million tokens in the gateway unit become quota per token; settings win', () => {
    const cny = unitFromStatus({ displayType: 'CNY', quotaPerUnit: 500000, usdExchangeRate: 7.3 });
    const [p] = pricesFromSettings(
      { 'gw-chat': { inputPerMillion: 7.3, outputPerMillion: 14.6, perSecond: 0.73 } },
      cny,
    );
    assert.equal(p?.source, 'settings');
    assert.ok(Math.abs(p!.input! - 0.5) < 1e-12);
    assert.ok(Math.abs(p!.output! - 1) < 1e-12);
    assert.ok(Math.abs(p!.perSecond! - 50000) < 1e-6);
    const book = new PriceBook([{ model: 'gw-chat', source: 'gateway', input: 9 }], [p!]);
    assert.equal(book.lookup('gw-chat')?.source, 'settings');
    assert.equal(book.lookup('other'), undefined);
  });

  void it('ignores negative and non-number settings', () => {
    assert.deepEqual(pricesFromSettings({ m: { inputPerMillion: -1, perCall: Number.NaN } }, USD), []);
  });
});
