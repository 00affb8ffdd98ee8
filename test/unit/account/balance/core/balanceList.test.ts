// Every profile's balance as lines: the figure with its unit, its source and age; a profile not
// read, unreadable or without a balance says so instead of showing a figure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AccountSnapshot } from '../../../../../src/account/balance/core/accountState';
import {
  ageText,
  balanceLines,
  coolDownTooltip,
  otherBalanceTooltip,
  type ProfileBalance,
} from '../../../../../src/account/balance/core/balanceList';
import { USD, unitFromStatus } from '../../../../../src/account/balance/core/money';

const now = Date.parse('2026-11-28T10:00:00Z');
const snap = (o: Partial<AccountSnapshot>): AccountSnapshot => ({
  gateway: 'https://a.example/v1',
  status: 'ok',
  unit: USD,
  todayQuota: 0,
  ...o,
});

void describe('balanceLines', () => {
  void it('active first, then by name; each figure with its unit, source and age', () => {
    const cny = unitFromStatus({ displayType: 'CNY', quotaPerUnit: 500_000, usdExchangeRate: 7.3 });
    const list: ProfileBalance[] = [
      {
        profileId: 'z',
        name: 'Zeta',
        active: false,
        snap: snap({
          source: 'openrouter',
          readAt: now - 4 * 60_000,
          reading: { quota: 37_250_000, unlimited: false, unit: USD, source: 'openrouter' },
        }),
      },
      {
        profileId: 'a',
        name: 'Alpha',
        active: true,
        snap: snap({
          source: 'new-api',
          readAt: now - 5_000,
          reading: { quota: 845_205, unlimited: false, unit: cny, source: 'new-api' },
        }),
      },
      { profileId: 'b', name: 'Beta', active: false, problem: 'The gateway profile "Beta" has no API key.' },
      { profileId: 'c', name: 'Gamma', active: false },
    ];
    const lines = balanceLines(list, now);
    assert.deepEqual(
      lines.map((l) => [l.label, l.figure]),
      [
        ['Alpha (active)', '¥12.34'],
        ['Beta', 'not read'],
        ['Gamma', 'not read yet'],
        ['Zeta', '$74.50'],
      ],
    );
    assert.match(lines[0]!.detail, /new-api.*just now/);
    assert.match(lines[1]!.detail, /no API key/);
    assert.match(lines[3]!.detail, /OpenRouter's \/api\/v1\/key, read 4 min ago/);
  });

  void it('unavailable, none and unlimited are words, never a figure', () => {
    const lines = balanceLines(
      [
        {
          profileId: 'u',
          name: 'U',
          active: false,
          snap: snap({ status: 'unavailable', source: 'litellm', why: 'x' }),
        },
        { profileId: 'n', name: 'N', active: false, snap: snap({ status: 'none' }) },
        {
          profileId: 'l',
          name: 'L',
          active: false,
          snap: snap({ readAt: now, reading: { unlimited: true, unit: USD, source: 'litellm' } }),
        },
      ],
      now,
    );
    assert.deepEqual(
      lines.map((l) => l.figure),
      ['unlimited', 'no balance reported', 'balance unavailable'],
    );
    assert.match(lines[2]!.detail, /LiteLLM.*the log says why/);
  });

  void it('the tooltip lists the other profiles only', () => {
    const t = otherBalanceTooltip(
      [
        { profileId: 'a', name: 'A', active: true },
        { profileId: 'b', name: 'B', active: false },
      ],
      now,
    );
    assert.equal(t[0], 'Other profiles:');
    assert.match(t[1]!, /^B: not read yet \(/);
    assert.deepEqual(otherBalanceTooltip([{ profileId: 'a', name: 'A', active: true }], now), []);
  });

  void it('the tooltip names the profiles failover skips now, until when and what they said', () => {
    const t = coolDownTooltip(
      [
        { name: 'Relay A', coolDown: { until: now + 60_000, cause: 'rate_limit', said: 'HTTP 429 slow down' } },
        { name: 'Old', coolDown: { until: now - 1, cause: 'server', said: 'HTTP 503' } },
      ],
      now,
      () => '12:05',
    );
    assert.deepEqual(t, ['Failover skips:', 'Relay A until 12:05 (it said: HTTP 429 slow down)']);
    assert.deepEqual(
      coolDownTooltip([], now, () => ''),
      [],
    );
  });

  void it('ages in minutes, hours and days', () => {
    assert.equal(ageText(now - 59_000, now), 'just now');
    assert.equal(ageText(now - 3 * 3_600_000, now), '3 h ago');
    assert.equal(ageText(now - 2 * 86_400_000, now), '2 days ago');
    assert.equal(ageText(now + 5_000, now), 'just now');
  });
});
