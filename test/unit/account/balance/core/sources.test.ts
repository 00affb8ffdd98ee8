// The parsers of each balance source, fed the quirks and hostile values directly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { USD, unitFromStatus } from '../../../../../src/account/balance/core/money';
import { formatQuota } from '../../../../../src/account/balance/core/money';
import {
  atPath,
  errorIn,
  looksLiteLlmKey,
  looksOpenRouterKey,
  maskedKeyCheck,
  parseCustom,
  parseDashboard,
  parseLiteLlmKey,
  parseOpenRouterCredits,
  parseOpenRouterKey,
  parseStatus,
  parseTokenUsage,
  unitFromCurrency,
  type BalanceFigures,
  type Parsed,
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

// The issue-39 billing dialects, fed the providers' own documented example bodies (docs/relay-billing.md
// names each page) and then what a hostile or broken gateway could answer instead: HTML text, NaN
// as a string, negative and absurd figures, another key's figures. Each bad answer is a reason
// (a line for the log), never a figure; each figure carries its unit.
const figure = (p: Parsed<BalanceFigures>): string => {
  assert.ok(p.ok, JSON.stringify(p));
  return p.value.unlimited ? 'unlimited' : formatQuota(p.value.quota!, p.value.unit);
};
const why = (p: Parsed<BalanceFigures>): string => {
  assert.equal(p.ok, false, JSON.stringify(p));
  return (p as { why: string }).why;
};

/** OpenRouter's documented `GET /api/v1/key` example (openrouter.ai/docs/api/api-reference/api-keys/get-current-key). */
const OPENROUTER_KEY = {
  data: {
    byok_usage: 17.38,
    byok_usage_daily: 17.38,
    byok_usage_monthly: 17.38,
    byok_usage_weekly: 17.38,
    creator_user_id: 'user_2dHFtVWx2n56w6HkM0000000000',
    expires_at: '2027-12-31T23:59:59Z',
    include_byok_in_limit: false,
    is_free_tier: false,
    is_management_key: false,
    is_provisioning_key: false,
    label: 'sk-or-v1-au7...890',
    limit: 100,
    limit_remaining: 74.5,
    limit_reset: 'monthly',
    rate_limit: { interval: '1h', note: 'This field is deprecated and safe to ignore.', requests: 1000 },
    usage: 25.5,
    usage_daily: 25.5,
    usage_monthly: 25.5,
    usage_weekly: 25.5,
  },
};
/** The documented `GET /api/v1/credits` example. */
const OPENROUTER_CREDITS = { data: { total_credits: 100.5, total_usage: 25.75 } };
/** LiteLLM's `/key/info` answer (litellm/proxy/management_endpoints/key_management_endpoints.py: `{key, info}`). */
const LITELLM_KEY_INFO = {
  key: '88dc28d0f030c55ed4ab77ed8faf098196cb1c05df778539800c9f1243fe6b4b',
  info: {
    key_name: 'sk-...abcd',
    key_alias: 'ci',
    spend: 0.25,
    max_budget: 10,
    expires: null,
    models: [],
    team_id: null,
    user_id: 'default_user_id',
    budget_reset_at: null,
  },
};
/** new-api's documented dashboard pair (new-api-docs, fei-account-billing-panel.md). */
const NEWAPI_SUBSCRIPTION = {
  object: 'billing_subscription',
  has_payment_method: true,
  soft_limit_usd: 100.0,
  hard_limit_usd: 100.0,
  system_hard_limit_usd: 100.0,
  access_until: 1640995200,
};
const NEWAPI_USAGE = { object: 'list', total_usage: 2500.0 };

const OUR_OPENROUTER_KEY = 'sk-or-v1-au7XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX890';
const OUR_LITELLM_KEY = 'sk-proxy-key-abcd';

void describe('OpenRouter /api/v1/key', () => {
  void it('the documented example: $74.50 left of the key limit, with its expiry', () => {
    const p = parseOpenRouterKey(OPENROUTER_KEY, maskedKeyCheck(OUR_OPENROUTER_KEY));
    assert.equal(figure(p), '$74.50');
    assert.ok(p.ok && p.value.expiresAt === Date.parse('2027-12-31T23:59:59Z'));
    assert.ok(p.ok && p.value.unit.kind === 'USD');
    assert.ok(looksOpenRouterKey(OPENROUTER_KEY));
  });

  void it('a key without a limit is unlimited (its figure comes from /credits)', () => {
    const body = { data: { ...OPENROUTER_KEY.data, limit: null, limit_remaining: null } };
    assert.equal(figure(parseOpenRouterKey(body)), 'unlimited');
  });

  void it('limit − usage when limit_remaining is missing (older answers)', () => {
    const { limit_remaining: _drop, ...rest } = OPENROUTER_KEY.data;
    assert.equal(figure(parseOpenRouterKey({ data: rest })), '$74.50');
  });

  void it('refuses another key’s figures, NaN, negative and absurd figures, and error bodies', () => {
    assert.match(why(parseOpenRouterKey(OPENROUTER_KEY, maskedKeyCheck('sk-or-v1-zzz000'))), /another key/);
    assert.match(
      why(parseOpenRouterKey({ data: { ...OPENROUTER_KEY.data, limit_remaining: 'NaN' } })),
      /unexpected shape at data\.limit_remaining/,
    );
    assert.match(why(parseOpenRouterKey({ data: { ...OPENROUTER_KEY.data, limit_remaining: -3 } })), /negative/);
    assert.match(why(parseOpenRouterKey({ data: { ...OPENROUTER_KEY.data, limit_remaining: 1e13 } })), /implausibly/);
    assert.match(why(parseOpenRouterKey({ data: { ...OPENROUTER_KEY.data, usage: -1 } })), /usage is negative/);
    assert.match(why(parseOpenRouterKey({ error: { code: 401, message: 'No auth credentials found' } })), /No auth/);
    assert.match(why(parseOpenRouterKey('<html><body>Sign in</body></html>')), /unexpected shape/);
  });

  void it('a label the user chose (not a masked key) is not taken for another key', () => {
    const body = { data: { ...OPENROUTER_KEY.data, label: 'Production API Key' } };
    assert.equal(figure(parseOpenRouterKey(body, maskedKeyCheck(OUR_OPENROUTER_KEY))), '$74.50');
  });

  void it('another product’s /v1/key is not OpenRouter', () => {
    assert.equal(looksOpenRouterKey({ data: { id: 'k1' } }), false);
    assert.equal(looksOpenRouterKey({ object: 'list', data: [] }), false);
  });
});

void describe('OpenRouter /api/v1/credits', () => {
  void it('the documented example: 100.50 bought − 25.75 used = $74.75', () => {
    assert.equal(figure(parseOpenRouterCredits(OPENROUTER_CREDITS)), '$74.75');
  });

  void it('refuses more used than bought, NaN, absurd figures', () => {
    assert.match(
      why(parseOpenRouterCredits({ data: { total_credits: 10, total_usage: 12 } })),
      /total_credits - total_usage is negative/,
    );
    assert.match(why(parseOpenRouterCredits({ data: { total_credits: 'NaN', total_usage: 1 } })), /unexpected shape/);
    assert.match(why(parseOpenRouterCredits({ data: { total_credits: 1e300, total_usage: 1 } })), /implausibly/);
  });
});

void describe('LiteLLM /key/info', () => {
  void it('max_budget − spend in dollars: $9.75', () => {
    assert.equal(figure(parseLiteLlmKey(LITELLM_KEY_INFO, maskedKeyCheck(OUR_LITELLM_KEY))), '$9.75');
    assert.ok(looksLiteLlmKey(LITELLM_KEY_INFO));
  });

  void it('no max_budget is unlimited; an ISO expiry is kept', () => {
    const body = {
      ...LITELLM_KEY_INFO,
      info: { ...LITELLM_KEY_INFO.info, max_budget: null, expires: '2030-01-01T00:00:00Z' },
    };
    const p = parseLiteLlmKey(body);
    assert.equal(figure(p), 'unlimited');
    assert.ok(p.ok && p.value.expiresAt === Date.parse('2030-01-01T00:00:00Z'));
  });

  void it('refuses another key, overspent and absurd budgets, strings, and LiteLLM’s error body', () => {
    assert.match(why(parseLiteLlmKey(LITELLM_KEY_INFO, maskedKeyCheck('sk-proxy-key-wxyz'))), /another key/);
    assert.match(
      why(parseLiteLlmKey({ info: { ...LITELLM_KEY_INFO.info, spend: 12 } })),
      /max_budget - spend is negative/,
    );
    assert.match(why(parseLiteLlmKey({ info: { ...LITELLM_KEY_INFO.info, max_budget: 1e14 } })), /implausibly/);
    assert.match(
      why(parseLiteLlmKey({ info: { ...LITELLM_KEY_INFO.info, spend: 'NaN' } })),
      /unexpected shape at info\.spend/,
    );
    assert.match(
      why(
        parseLiteLlmKey({
          error: { message: 'Authentication Error, Invalid proxy server token passed', type: 'auth_error' },
        }),
      ),
      /Authentication Error/,
    );
    assert.equal(looksLiteLlmKey({ info: { title: 'an OpenAPI document' } }), false);
  });
});

void describe('new-api dashboard billing (documented example)', () => {
  void it('hard_limit_usd 100 − total_usage 2500 / 100 = $75.00, with access_until', () => {
    const p = parseDashboard(NEWAPI_SUBSCRIPTION, NEWAPI_USAGE, USD);
    assert.equal(figure(p), '$75.00');
    assert.ok(p.ok && p.value.expiresAt === 1640995200 * 1000);
  });

  void it('refuses usage past the limit and the documented error bodies', () => {
    assert.match(
      why(parseDashboard(NEWAPI_SUBSCRIPTION, { object: 'list', total_usage: 20000 }, USD)),
      /balance is negative/,
    );
    assert.match(
      why(
        parseDashboard({ error: { message: 'Failed to retrieve quota', type: 'upstream_error' } }, NEWAPI_USAGE, USD),
      ),
      /Failed to retrieve quota/,
    );
    assert.match(
      why(
        parseDashboard(
          NEWAPI_SUBSCRIPTION,
          { error: { message: 'Failed to retrieve usage', type: 'new_api_error' } },
          USD,
        ),
      ),
      /Failed to retrieve usage/,
    );
  });
});

void describe('maskedKeyCheck', () => {
  void it('matches head and tail; cannot tell for a plain label or a mask too short', () => {
    const check = maskedKeyCheck('sk-or-v1-abcdef123456');
    assert.equal(check('sk-or-v1-abc...456'), true);
    assert.equal(check('sk-or-v1-abc…456'), true);
    assert.equal(check('sk-or-v1-abc...999'), false);
    assert.equal(check('My key'), undefined);
    assert.equal(check('...'), undefined);
  });
});
