// The status-bar item's words for each state of an account.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AccountSnapshot } from '../../../../../src/account/balance/core/accountState';
import { USD, unitFromStatus } from '../../../../../src/account/balance/core/money';
import { balanceStatusModel } from '../../../../../src/account/balance/core/statusModel';

const now = Date.parse('2026-11-25T12:00:00Z');
const opts = { now, timeText: (ms: number) => new Date(ms).toISOString() };
const base: AccountSnapshot = {
  gateway: 'https://gw.example/v1',
  status: 'ok',
  unit: USD,
  todayQuota: 600,
  readAt: now,
};

void describe('balanceStatusModel', () => {
  void it('the figure with its unit; tooltip with source, read time, expiry, today', () => {
    const m = balanceStatusModel(
      {
        ...base,
        source: 'new-api',
        reading: {
          source: 'new-api',
          quota: 1_605_000,
          unlimited: false,
          unit: USD,
          topUpLink: 'https://gw.example/topup',
        },
      },
      opts,
    );
    assert.equal(m.figure, '$3.21');
    assert.equal(m.warn, false);
    assert.equal(m.topUpLink, 'https://gw.example/topup');
    assert.deepEqual(m.tooltip, [
      'Balance: $3.21',
      'The key does not expire.',
      "Source: the gateway's /api/usage/token (new-api)",
      `Read at ${new Date(now).toISOString()}`,
      'Today: $0.0012',
    ]);
  });

  void it('warning colour below the threshold, and for an expired key', () => {
    const tokens = unitFromStatus({ displayType: 'TOKENS' });
    const low = balanceStatusModel(
      { ...base, unit: tokens, reading: { source: 'dashboard', quota: 900, unlimited: false, unit: tokens } },
      { ...opts, warnBelowQuota: 1000 },
    );
    assert.equal(low.figure, '900 tokens');
    assert.equal(low.warn, true);
    const expired = balanceStatusModel(
      { ...base, reading: { source: 'new-api', quota: 5e6, unlimited: false, unit: USD, expiresAt: now - 1000 } },
      opts,
    );
    assert.equal(expired.warn, true);
    assert.match(expired.tooltip.join('\n'), /expired/);
  });

  void it('unlimited never warns; unavailable says so; none is one quiet line and hidden', () => {
    const u = balanceStatusModel(
      { ...base, reading: { source: 'new-api', unlimited: true, unit: USD } },
      { ...opts, warnBelowQuota: 1e9 },
    );
    assert.equal(u.figure, 'unlimited');
    assert.equal(u.warn, false);
    assert.equal(
      balanceStatusModel({ ...base, status: 'unavailable', source: 'new-api' }, opts).figure,
      'balance unavailable',
    );
    const none = balanceStatusModel({ ...base, status: 'none' }, opts);
    assert.equal(none.visible, false);
    assert.equal(none.quietLine, 'This gateway does not report a balance.');
  });
});
