// One model's price on every profile that lists it: compared in dollars across units, cheapest
// first, a price with no figure left out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { USD, unitFromStatus } from '../../../../../src/account/balance/core/money';
import { comparableDollars, comparePrices } from '../../../../../src/account/pricing/core/priceCompare';

const cny = unitFromStatus({ displayType: 'CNY', quotaPerUnit: 500_000, usdExchangeRate: 7.3 });

void describe('comparePrices', () => {
  void it('sorts each model by dollars for 1M in + 1M out, whatever unit each profile shows', () => {
    const m = comparePrices([
      { profile: 'A', unit: USD, prices: [{ model: 'gw-chat', source: 'gateway', input: 2, output: 8 }] },
      { profile: 'B', unit: cny, prices: [{ model: 'gw-chat', source: 'gateway', input: 1.5, output: 6 }] },
      { profile: 'C', unit: USD, prices: [{ model: 'other', source: 'settings', input: 1 }] },
    ]);
    assert.deepEqual([...m.keys()], ['gw-chat', 'other']);
    assert.deepEqual(
      m.get('gw-chat')!.map((o) => o.profile),
      ['B', 'A'],
    );
    // Group ratio already in the price: 1.5 + 6 quota per token, 500000 quota per dollar.
    assert.equal(m.get('gw-chat')![0]!.dollars, 15);
    // An input price alone counts for both directions.
    assert.equal(m.get('other')![0]!.dollars, 4);
  });

  void it('per-call and per-second prices, ties by profile name, no figure left out', () => {
    assert.equal(comparableDollars({ model: 'v', source: 'gateway', perCall: 250_000 }, USD), 0.5);
    assert.equal(comparableDollars({ model: 'v', source: 'gateway', perSecond: 500_000 }, USD), 1);
    assert.equal(comparableDollars({ model: 'v', source: 'gateway' }, USD), Number.POSITIVE_INFINITY);
    const m = comparePrices([
      { profile: 'Z', unit: USD, prices: [{ model: 'v', source: 'gateway', perCall: 1 }] },
      {
        profile: 'Y',
        unit: USD,
        prices: [
          { model: 'v', source: 'gateway', perCall: 1 },
          { model: 'w', source: 'gateway' },
        ],
      },
    ]);
    assert.deepEqual(
      m.get('v')!.map((o) => o.profile),
      ['Y', 'Z'],
    );
    assert.equal(m.has('w'), false);
  });
});
