// The daily soft limit: once per gateway and day, only when passed, remembered across a reload.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DailyLimitGuard, WARNED_KEY } from '../../../../../src/account/spend/core/dailyLimit';
import { MemoryStorage } from '../../../../support/memoryStorage';

const gw = 'https://gw.example/v1';

void describe('DailyLimitGuard', () => {
  void it('warns once when today passes the limit, again the next day', () => {
    const store = new MemoryStorage();
    const g = new DailyLimitGuard(store);
    const at = (day: string, todayQuota: number) => g.shouldWarn({ gateway: gw, day, todayQuota, limitQuota: 1000 });
    assert.equal(at('2026-11-26', 999), false);
    assert.equal(at('2026-11-26', 1000), false, 'reaching the limit is not passing it');
    assert.equal(at('2026-11-26', 1001), true);
    assert.equal(at('2026-11-26', 5000), false, 'once a day');
    // A reload: a new guard over the same storage says nothing again.
    assert.equal(
      new DailyLimitGuard(store).shouldWarn({ gateway: gw, day: '2026-11-26', todayQuota: 9e9, limitQuota: 1000 }),
      false,
    );
    assert.equal(at('2026-11-27', 1001), true);
  });

  void it('each gateway has its own day; no limit or a bad one never warns', () => {
    const g = new DailyLimitGuard(new MemoryStorage());
    assert.equal(g.shouldWarn({ gateway: gw, day: 'd', todayQuota: 5, limitQuota: 1 }), true);
    assert.equal(g.shouldWarn({ gateway: 'https://other/v1', day: 'd', todayQuota: 5, limitQuota: 1 }), true);
    for (const limitQuota of [undefined, 0, -1, Number.NaN])
      assert.equal(g.shouldWarn({ gateway: 'https://third/v1', day: 'd', todayQuota: 5, limitQuota }), false);
  });

  void it('a damaged store is read as nothing warned; it stays bounded', () => {
    const store = new MemoryStorage();
    void store.update(WARNED_KEY, ['x']);
    const g = new DailyLimitGuard(store);
    for (let i = 0; i < 80; i++) g.shouldWarn({ gateway: `https://g${i}/v1`, day: 'd', todayQuota: 2, limitQuota: 1 });
    const saved = store.get<Record<string, string>>(WARNED_KEY) ?? {};
    assert.equal(Object.keys(saved).length, 50);
    assert.ok('https://g79/v1' in saved && !('https://g0/v1' in saved));
  });
});
