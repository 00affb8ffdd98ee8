// The parsers of each balance source, fed the quirks and hostile values directly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { USD, unitFromStatus } from '../../../../../src/account/balance/core/money';
import {
  atPath,
  errorIn,
  parseCustom,
  parseDashboard,
  parseStatus,
  parseTokenUsage,
  unitFromCurrency,
} from '../../../../../src/account/balance/core/sources';

void describe('parseStatus', () => {
  void it('reads the unit, and old new-api with only display_in_currency', () => {
    const s = parseStatus({ success: true, data: { quota_per_unit: 500000, quota_display_type: 'TOKENS' } });
    assert.ok(s.ok && s.value.unit.kind === 'TOKENS');
    const old = parseStatus({ success: true, data: { quota_per_unit: 500000, display_in_currency: false } });
    assert.ok(old.ok && old.value.unit.kind === 'TOKENS');
  });

  void it('offers only an http(s) top-up link', () => {
    const s = parseStatus({ data: { quota_per_unit: 1, top_up_link: 'javascript:alert(1)' } });
    assert.ok(s.ok && s.value.topUpLink === undefined);
  });

  void it('is not new-api without unit fields', () => {
    assert.equal(parseStatus({ data: { version: '1' } }).ok, false);
  });
});

void describe('parseTokenUsage', () => {
  void it('expires_at in seconds becomes ms; 0 is never', () => {
    const r = parseTokenUsage({ data: { total_available: 10, expires_at: 1_800_000_000 } }, USD);
    assert.ok(r.ok && r.value.expiresAt === 1_800_000_000_000);
    const n = parseTokenUsage({ data: { total_available: 10, expires_at: 0 } }, USD);
    assert.ok(n.ok && n.value.expiresAt === undefined);
  });

  void it('an error in a 200 answer, in each of the shapes relays use', () => {
    assert.match(errorIn({ error: { message: 'bad token' } }) ?? '', /bad token/);
    assert.match(errorIn({ success: false, message: 'nope' }) ?? '', /nope/);
    assert.equal(parseTokenUsage({ success: false, message: 'x' }, USD).ok, false);
  });

  void it('negative and huge figures are refused', () => {
    assert.equal(parseTokenUsage({ data: { total_available: -1 } }, USD).ok, false);
    assert.equal(parseTokenUsage({ data: { total_available: 1e16 } }, USD).ok, false);
  });
});

void describe('parseDashboard', () => {
  const cny = unitFromStatus({ displayType: 'CNY', quotaPerUnit: 500000, usdExchangeRate: 7.3 });
  void it('hard_limit_usd minus total_usage/100, both in the display unit', () => {
    const r = parseDashboard({ hard_limit_usd: 20 }, { total_usage: 766 }, cny);
    assert.ok(r.ok);
    assert.equal(r.value.quota, Math.round((12.34 * 500000) / 7.3));
  });

  void it('100000000 is unlimited; a usage above the limit is refused', () => {
    const u = parseDashboard({ hard_limit_usd: 100000000 }, { total_usage: 5 }, USD);
    assert.ok(u.ok && u.value.unlimited);
    assert.equal(parseDashboard({ hard_limit_usd: 1 }, { total_usage: 500 }, USD).ok, false);
  });
});

void describe('parseCustom', () => {
  void it('JSON paths with array indexes; own properties only', () => {
    assert.equal(atPath({ a: [{ b: 3 }] }, '$.a[0].b'), 3);
    assert.equal(atPath({}, 'constructor'), undefined);
    assert.equal(atPath({ a: 1 }, '__proto__.x'), undefined);
  });

  void it('the currency names the unit; a string, NaN-like or negative figure is refused', () => {
    const r = parseCustom({ b: 12.34, c: 'RMB' }, 'b', 'c');
    assert.ok(r.ok && r.value.unit.kind === 'CNY');
    assert.equal(parseCustom({ b: 'NaN' }, 'b').ok, false);
    assert.equal(parseCustom({ b: '12.34' }, 'b').ok, false);
    assert.equal(parseCustom({ b: -3 }, 'b').ok, false);
    assert.equal(unitFromCurrency('USDT').symbol, 'USDT');
    assert.equal(unitFromCurrency(undefined).kind, 'USD');
  });
});
