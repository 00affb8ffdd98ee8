// Balance detection against the local gateway's new-api endpoints (test/gateway/account.ts):
// the order new-api -> dashboard -> configured -> none, every display type, and every quirk of
// issue 21 mapped to the right figure, through the product's own HTTP client.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpClient } from '../../../../../src/api/transport/http';
import { readBalance, type ReadOutcome } from '../../../../../src/account/balance/core/detect';
import { formatQuota } from '../../../../../src/account/balance/core/money';
import { maskedKeyCheck } from '../../../../../src/account/balance/core/sources';
import { transportOver } from '../../../../../src/api/account/transport';
import { useGateway } from '../../../../support/helpers';

const gw = useGateway();
const transport = (key: string = gw.keys.valid) => transportOver(new HttpClient({ baseUrl: gw.url, apiKey: key }));
const shown = (o: ReadOutcome): string => {
  assert.equal(o.kind, 'reading', JSON.stringify(o));
  const r = (o as Extract<ReadOutcome, { kind: 'reading' }>).reading;
  return r.unlimited ? 'unlimited' : formatQuota(r.quota!, r.unit);
};
const reset = () => fetch(`${gw.url}/__control/reset`, { method: 'POST' });

void describe('new-api source', () => {
  void it('USD: total_available over quota_per_unit, with the top-up link', async () => {
    await reset();
    const o = await readBalance(transport());
    assert.equal(shown(o), '$25.00');
    const r = (o as Extract<ReadOutcome, { kind: 'reading' }>).reading;
    assert.equal(r.source, 'new-api');
    assert.equal(r.topUpLink, 'https://gateway.example/console/topup');
    assert.equal(r.expiresAt, undefined);
  });

  void it('CNY, TOKENS and CUSTOM display types, and another quota_per_unit', async () => {
    await reset();
    gw.setAccount({ displayType: 'CNY', usdExchangeRate: 7.3, balance: 845_205 });
    assert.equal(shown(await readBalance(transport())), '¥12.34');
    gw.setAccount({ displayType: 'TOKENS', balance: 1_234_567 });
    assert.equal(shown(await readBalance(transport())), '1.2M tokens');
    gw.setAccount({ displayType: 'CUSTOM', customSymbol: '€', customRate: 0.92, balance: 500_000 });
    assert.equal(shown(await readBalance(transport())), '€0.92');
    gw.setAccount({ displayType: 'USD', quotaPerUnit: 1000, balance: 3210 });
    assert.equal(shown(await readBalance(transport())), '$3.21');
  });

  void it('an unlimited key and an expired key', async () => {
    await reset();
    gw.setAccount({ unlimited: true });
    assert.equal(shown(await readBalance(transport())), 'unlimited');
    gw.setAccount({ unlimited: false, expired: true });
    const o = await readBalance(transport());
    const r = (o as Extract<ReadOutcome, { kind: 'reading' }>).reading;
    assert.ok(r.expiresAt !== undefined && r.expiresAt < Date.now(), 'expiry in the past, in ms');
  });

  void it('the balance moves by exactly what the gateway charged for a chat call', async () => {
    await reset();
    gw.setAccount({ quotaPerUnit: 1000, balance: 100_000 });
    const before = await readBalance(transport());
    const res = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.keys.valid}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gw-chat', messages: [{ role: 'user', content: 'hello there' }] }),
    });
    const usage = ((await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    const after = await readBalance(transport());
    const q = (o: ReadOutcome) => (o as Extract<ReadOutcome, { kind: 'reading' }>).reading.quota!;
    assert.equal(q(before) - q(after), Math.round((usage.prompt_tokens + usage.completion_tokens * 4) * 1.5));
  });
});

void describe('the /dashboard/billing pair', () => {
  void it('used when /api/usage/token is missing: hard_limit - total_usage/100, in the display unit', async () => {
    await reset();
    gw.setAccount({ displayType: 'CNY', balance: 845_205, endpoints: { 'usage-token': 'missing' } });
    const o = await readBalance(transport());
    assert.equal((o as Extract<ReadOutcome, { kind: 'reading' }>).reading.source, 'dashboard');
    assert.equal(shown(o), '¥12.34');
  });

  void it('used in dollars when there is no /api/status; 100000000 is unlimited', async () => {
    await reset();
    gw.setAccount({ balance: 1_605_000, endpoints: { status: 'missing' } });
    assert.equal(shown(await readBalance(transport())), '$3.21');
    gw.setAccount({ unlimited: true });
    assert.equal(shown(await readBalance(transport())), 'unlimited');
  });

  void it('HTTP 200 with an error object is unavailable, not zero', async () => {
    await reset();
    gw.setAccount({ endpoints: { status: 'missing', subscription: 'error200' } });
    const o = await readBalance(transport());
    assert.equal(o.kind, 'unavailable');
    assert.match((o as { why: string }).why, /record not found/);
  });
});

void describe('configured source and none', () => {
  const none = { status: 'missing', 'usage-token': 'missing', subscription: 'missing', usage: 'missing' } as const;

  void it('a configured URL with JSON paths, after the built-in sources are missing', async () => {
    await reset();
    gw.setAccount({
      endpoints: { ...none, 'log-token': { body: { data: { wallet: { left: 12.34, currency: 'CNY' } } } } },
    });
    const o = await readBalance(transport(), {
      custom: { url: `${gw.url}/api/log/token`, balancePath: 'data.wallet.left', currencyPath: 'data.wallet.currency' },
    });
    assert.equal(shown(o), '¥12.34');
    assert.equal((o as Extract<ReadOutcome, { kind: 'reading' }>).reading.source, 'custom');
  });

  void it('none when nothing answers; a remembered source that went away is detected again', async () => {
    await reset();
    gw.setAccount({ endpoints: none });
    assert.deepEqual(await readBalance(transport()), { kind: 'none' });
    assert.deepEqual(await readBalance(transport(), { remembered: 'new-api' }), { kind: 'none' });
  });
});

void describe("the gateway's unit comes from its /api/status, whatever became of the balance", () => {
  void it('no balance endpoint: none, in the unit /api/status states', async () => {
    await reset();
    gw.setAccount({
      displayType: 'CNY',
      usdExchangeRate: 8,
      endpoints: { 'usage-token': 'missing', subscription: 'missing', usage: 'missing' },
    });
    const o = await readBalance(transport());
    assert.equal(o.kind, 'none');
    assert.equal(o.unit?.kind, 'CNY', JSON.stringify(o));
    assert.equal(formatQuota(500_000, o.unit!), '¥8.00');
  });

  void it('an unreadable balance (HTTP 200 with an error) keeps the unit', async () => {
    await reset();
    gw.setAccount({ displayType: 'TOKENS', endpoints: { 'usage-token': 'error200' } });
    const o = await readBalance(transport());
    assert.equal(o.kind, 'unavailable');
    assert.equal(o.unit?.kind, 'TOKENS');
  });

  void it("a configured source's currency is the balance's; the gateway's own unit is still its status's", async () => {
    await reset();
    gw.setAccount({
      displayType: 'USD',
      endpoints: {
        'usage-token': 'missing',
        subscription: 'missing',
        usage: 'missing',
        'log-token': { body: { data: { wallet: { left: 12.34, currency: 'CNY' } } } },
      },
    });
    const o = await readBalance(transport(), {
      remembered: 'custom',
      custom: { url: `${gw.url}/api/log/token`, balancePath: 'data.wallet.left', currencyPath: 'data.wallet.currency' },
    });
    assert.equal(shown(o), '¥12.34');
    assert.equal(o.unit?.kind, 'USD');
  });

  void it('without /api/status there is no stated unit', async () => {
    await reset();
    gw.setAccount({ endpoints: { status: 'missing' } });
    const o = await readBalance(transport());
    assert.equal(o.unit, undefined);
  });
});

void describe('hostile answers: "balance unavailable" with a reason, never a figure', () => {
  const hostile: Array<[string, unknown]> = [
    ['negative', { code: true, data: { total_available: -5 } }],
    ['a string', { code: true, data: { total_available: '12.34' } }],
    ['huge', { code: true, data: { total_available: 1e300 } }],
    ['a list', [1, 2, 3]],
  ];
  for (const [name, body] of hostile) {
    void it(`total_available ${name}`, async () => {
      await reset();
      gw.setAccount({ endpoints: { 'usage-token': { body } } });
      const o = await readBalance(transport());
      assert.equal(o.kind, 'unavailable', JSON.stringify(o));
      assert.ok((o as { why: string }).why.length > 5);
    });
  }

  void it('HTML where JSON was expected: the source is not there', async () => {
    await reset();
    gw.setAccount({ endpoints: { 'usage-token': { body: '<!doctype html><title>Console</title>' } } });
    // new-api's /api/status is fine; its usage route serving a page sends detection on to the dashboard.
    const o = await readBalance(transport());
    assert.equal((o as Extract<ReadOutcome, { kind: 'reading' }>).reading.source, 'dashboard');
  });

  void it('quota_per_unit that is a string is unavailable, not dollars', async () => {
    await reset();
    gw.setAccount({ endpoints: { status: { body: { success: true, data: { quota_per_unit: 'lots' } } } } });
    assert.equal((await readBalance(transport())).kind, 'unavailable');
  });

  void it('a redirect is refused and the key never reaches the other origin', async () => {
    await reset();
    gw.setAccount({
      endpoints: { 'usage-token': { status: 302, body: '', location: `${gw.videoUrl}/v1/models` } },
    });
    const o = await readBalance(transport());
    assert.equal(o.kind, 'unavailable');
    assert.match((o as { why: string }).why, /redirect/i);
    assert.equal(gw.requests().filter((r) => r.host === 'video').length, 0, 'nothing was sent to the redirect target');
  });

  void it('a slow endpoint is unavailable within the timeout, and detection is not remembered as none', async () => {
    await reset();
    gw.setAccount({ slowMs: 400 });
    const t = transportOver(new HttpClient({ baseUrl: gw.url, apiKey: gw.keys.valid }), { timeoutMs: 100 });
    const o = await readBalance(t);
    assert.equal(o.kind, 'unavailable');
    assert.match((o as { why: string }).why, /No answer|within/);
  });

  void it('a wrong key reads as unavailable (401), not as none', async () => {
    await reset();
    assert.equal((await readBalance(transport('sk-wrong'))).kind, 'unavailable');
  });
});

// Issue 39's dialects, each served by a local-gateway instance of its own (`billing`), read over
// real HTTP as two more profiles would be: the key's own base URL and key only.
void describe('OpenRouter and LiteLLM instances', () => {
  const or = useGateway({ billing: 'openrouter' });
  const ll = useGateway({ billing: 'litellm' });
  const via = (g: typeof or, key = g.keys.valid) => {
    const http = new HttpClient({ baseUrl: `${g.url}/v1`, apiKey: key });
    return { t: transportOver(http), keyCheck: maskedKeyCheck(key) };
  };
  const post = (g: typeof or, body: unknown) =>
    fetch(`${g.url}/__control/account`, { method: 'POST', body: JSON.stringify(body) });
  const resetBoth = async () => {
    await fetch(`${or.url}/__control/reset`, { method: 'POST' });
    await fetch(`${ll.url}/__control/reset`, { method: 'POST' });
  };

  void it('OpenRouter: the key limit left, detected after new-api and the dashboard are missing', async () => {
    await resetBoth();
    const { t, keyCheck } = via(or);
    const o = await readBalance(t, { keyCheck });
    assert.equal(shown(o), '$25.00');
    assert.equal((o as Extract<ReadOutcome, { kind: 'reading' }>).reading.source, 'openrouter');
    assert.ok(or.requests().some((r) => r.path === '/v1/key' && r.auth === 'valid'));
    // Remembered: the next read goes straight to /v1/key.
    or.resetCounts();
    assert.equal(shown(await readBalance(t, { keyCheck, remembered: 'openrouter' })), '$25.00');
    assert.deepEqual(
      or.requests().map((r) => r.path),
      ['/v1/key'],
    );
  });

  void it('OpenRouter: a key without a limit is unlimited, or the account credits with a management key', async () => {
    await resetBoth();
    await post(or, { unlimited: true });
    const { t, keyCheck } = via(or);
    assert.equal(shown(await readBalance(t, { keyCheck, remembered: 'openrouter' })), 'unlimited');
    await post(or, { unlimited: false, managementKey: true, balance: 1_000_000 });
    await post(or, { unlimited: true });
    assert.equal(shown(await readBalance(t, { keyCheck, remembered: 'openrouter' })), '$2.00');
  });

  void it("another key's figures are unavailable, with the reason", async () => {
    await resetBoth();
    await post(or, { foreignKey: true });
    await post(ll, { foreignKey: true });
    for (const g of [or, ll]) {
      const { t, keyCheck } = via(g);
      const o = await readBalance(t, { keyCheck });
      assert.equal(o.kind, 'unavailable', JSON.stringify(o));
      assert.match((o as { why: string }).why, /another key/);
    }
  });

  void it('LiteLLM: max_budget − spend from /key/info, moving by what a chat call cost', async () => {
    await resetBoth();
    await post(ll, { quotaPerUnit: 1000, balance: 100_000 });
    const { t, keyCheck } = via(ll);
    const before = await readBalance(t, { keyCheck });
    assert.equal(shown(before), '$100.00');
    assert.equal((before as Extract<ReadOutcome, { kind: 'reading' }>).reading.source, 'litellm');
    const res = await fetch(`${ll.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ll.keys.valid}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const cost = Number(res.headers.get('x-litellm-response-cost'));
    await res.text();
    assert.ok(cost > 0, 'the answer carries its cost header');
    const after = await readBalance(t, { keyCheck, remembered: 'litellm' });
    const r = (after as Extract<ReadOutcome, { kind: 'reading' }>).reading;
    assert.equal(r.quota, 100_000 * 500 - Math.round(cost * 1000) * 500);
  });

  void it("the new-api routes are not there on these instances, nor theirs on new-api's", async () => {
    const s = await fetch(`${or.url}/api/status`);
    assert.equal(s.status, 404);
    await s.text();
    const k = await fetch(`${gw.url}/v1/key`, { headers: { authorization: `Bearer ${gw.keys.valid}` } });
    assert.equal(k.status, 404);
    await k.text();
  });
});
