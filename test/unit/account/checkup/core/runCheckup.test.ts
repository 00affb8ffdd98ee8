// The check-up end to end through real HTTP: the product's client and account transport against
// the local gateway's check-up models (test/gateway/checkup.ts), priced by its `/api/pricing` and
// billed by its `/api/log/token`. Each lying model is named for its lie; the honest one for none.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { transportOver } from '../../../../../src/api/account/transport';
import { GatewayClient } from '../../../../../src/api/client';
import { USD } from '../../../../../src/account/balance/core/money';
import { parsePricing, type ModelPrice } from '../../../../../src/account/pricing/core/pricing';
import {
  estimateCheckup,
  runCheckup,
  type CheckupPlan,
  type CheckupPort,
} from '../../../../../src/account/checkup/core/runCheckup';
import type { ProbeId, ProbeResult } from '../../../../../src/account/checkup/core/types';
import { startGateway, type Gateway } from '../../../../gateway/server';
import { CHECKUP_WINDOW } from '../../../../gateway/checkup';

let gw: Gateway;
let client: GatewayClient;
let port: CheckupPort;
let prices: Map<string, ModelPrice>;

before(async () => {
  gw = await startGateway({ checkupModels: true });
  client = new GatewayClient({ baseUrl: `${gw.url}/v1`, apiKey: gw.keys.valid, maxRetries: 0 });
  const transport = transportOver(client.http);
  port = {
    chat: (r, s) => client.chat(r, s),
    streamChat: (r, o) => client.streamChat(r, o),
    billingLog: async () => {
      const f = await transport.get('/api/log/token');
      return f.kind === 'json' ? { body: f.body } : { why: f.why };
    },
    now: () => Date.now(),
  };
  const f = await transport.get('/api/pricing');
  assert.equal(f.kind, 'json');
  const p = parsePricing(f.kind === 'json' ? f.body : undefined, { group: 'default', unit: USD });
  assert.ok(p.ok);
  prices = new Map(p.ok ? p.value.prices.map((x) => [x.model, x]) : []);
});
after(() => gw.close());

const plan = (model: string, allowWindow = true): CheckupPlan => ({
  model,
  price: prices.get(model),
  window: CHECKUP_WINDOW,
  allowWindow,
});

async function check(model: string, allowWindow = true): Promise<Map<ProbeId, ProbeResult>> {
  const r = await runCheckup(port, plan(model, allowWindow));
  return new Map(r.probes.map((p) => [p.probe, p]));
}

const problems = (m: Map<ProbeId, ProbeResult>): string[] =>
  [...m.values()].filter((p) => p.verdict !== 'ok').map((p) => `${p.probe}: ${p.verdict}: ${p.summary}`);

void describe('check-up against the local gateway', () => {
  void it('finds nothing wrong with the honest model', async () => {
    const r = await check('gpt-4o-honest');
    assert.deepEqual(problems(r), []);
    assert.match(r.get('tokenizer')!.summary, /match o200k .*as the name claims/);
    assert.equal(r.get('tools')!.figures.wellFormed, 5);
    assert.equal(r.get('bill')!.figures.multiplier, 1);
  });

  void it('names the substitution: another tokenizer family under an o200k name', async () => {
    const t = (await check('gpt-4o-swap', false)).get('tokenizer')!;
    assert.equal(t.verdict, 'problem');
    assert.match(t.summary, /match cl100k .* but the name claims o200k/);
    assert.ok(
      t.evidence.some((e) => /^cl100k.*off by 0\)$/.test(e)),
      t.evidence.join('\n'),
    );
  });

  void it('names a window half the advertised one, and a silent truncation', async () => {
    const half = (await check('gpt-4o-halfwindow')).get('window')!;
    assert.equal(half.verdict, 'problem');
    assert.match(half.summary, /refused as too long.*smaller than the claimed 8192/);
    assert.equal(half.figures.stated, 4096);
    const cut = (await check('gpt-4o-truncating')).get('window')!;
    assert.equal(cut.verdict, 'problem');
    assert.match(cut.summary, /counted only 4096 of about/);
  });

  void it('names a bill above the advertised price', async () => {
    const b = (await check('gpt-4o-markup', false)).get('bill')!;
    assert.equal(b.verdict, 'problem');
    assert.equal(b.figures.multiplier, 1.5);
    assert.match(b.summary, /Billed 1\.50× the advertised price/);
  });

  void it('names dropped parallel tool calls', async () => {
    const t = (await check('gpt-4o-notools', false)).get('tools')!;
    assert.equal(t.verdict, 'problem');
    assert.equal(t.figures.wellFormed, 4);
    assert.ok(
      t.evidence.some((e) => /^parallel: 1 call\(s\) instead of 2$/.test(e)),
      t.evidence.join('\n'),
    );
  });

  void it('estimates the cost within 20% of what the relay logged, and under $0.05 by default', async () => {
    for (const allowWindow of [false, true]) {
      const p = plan('gpt-4o-honest', allowWindow);
      const before = gw.account().used;
      const r = await runCheckup(port, p);
      const logged = gw.account().used - before;
      const est = estimateCheckup(p).quota!;
      console.log(
        `estimate ${est} quota units, logged ${logged} (window probe ${allowWindow}), spent ${r.spent.quota}`,
      );
      assert.equal(r.spent.quota, logged, 'what the run counts is what the relay logged');
      assert.ok(Math.abs(est - logged) <= logged * 0.2, `estimate ${est} vs logged ${logged}`);
      if (!allowWindow)
        assert.ok(logged / USD.quotaPerUnit < 0.05, `default check-up costs $${logged / USD.quotaPerUnit}`);
    }
  });

  void it('says "cannot tell" when the relay reports no usage, and shows a refusal', async () => {
    gw.fault({ usage: 'none', times: -1 });
    try {
      const r = await check('gpt-4o-honest', false);
      assert.equal(r.get('tokenizer')!.verdict, 'cannot-tell');
      assert.match(r.get('tokenizer')!.summary, /no prompt tokens \(usage\) for 8 of 8 probes/);
    } finally {
      gw.clearFaults();
    }
    gw.fault({ status: 403, times: -1, match: { path: '/v1/chat/completions' } });
    try {
      const r = await check('gpt-4o-honest', false);
      assert.equal(r.get('tokenizer')!.verdict, 'refused');
      assert.equal(r.get('tools')!.verdict, 'refused');
    } finally {
      gw.clearFaults();
    }
  });

  void it('stopped halfway, keeps what was spent and runs nothing more', async () => {
    const stop = new AbortController();
    let seen = 0;
    const r = await runCheckup(port, plan('gpt-4o-honest', true), {
      signal: stop.signal,
      onProbe: () => {
        if (++seen === 1) stop.abort();
      },
    });
    assert.equal(r.stopped, true);
    assert.equal(r.probes[0]!.verdict, 'ok');
    assert.deepEqual(
      r.probes.slice(1).map((p) => p.verdict),
      ['skipped', 'skipped', 'skipped', 'skipped'],
    );
    assert.equal(r.spent.requests, 8);
    assert.ok((r.spent.quota ?? 0) > 0);
  });

  void it('a scheduled run stops at its bound: nothing past it is sent, and the report says it stopped', async () => {
    const p = plan('gpt-4o-honest', false);
    const bound = Math.ceil(estimateCheckup(p).quota! / 3);
    const before = gw.account().used;
    const r = await runCheckup(port, p, { maxQuota: bound });
    assert.equal(r.stopped, true);
    assert.ok(r.spent.requests < 15, `sent ${r.spent.requests}`);
    assert.ok(r.probes.some((x) => x.verdict === 'skipped' && /stopped/.test(x.summary)));
    assert.equal(r.spent.quota, gw.account().used - before, 'what was spent is counted');
    // The one request that crossed the bound is the only one past it.
    const full = await runCheckup(port, p, { maxQuota: estimateCheckup(p).quota! * 1.2 });
    assert.equal(full.stopped, false);
  });
});
