// The gateway's own cost of an answer: which gateways are asked and believed, and what is
// refused; then over real HTTP against local-gateway instances that bill as OpenRouter, as a
// LiteLLM proxy and as new-api (which must be neither asked nor believed).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../src/api/client';
import {
  askCost,
  costPlan,
  costDialectOf,
  reportedCost,
  reportedCostIn,
  withReportedCost,
} from '../../../../src/api/chat/gatewayCost';
import type { ChatResult } from '../../../../src/api/transport/answer';
import { useGateway } from '../../../support/helpers';

const headers = (h: Record<string, string>) => new Headers(h);

void describe('which gateway reports its cost', () => {
  void it('OpenRouter by host or by detection; LiteLLM by detection only; anything else none', () => {
    assert.equal(costDialectOf('https://openrouter.ai/api/v1', undefined), 'openrouter');
    assert.equal(costDialectOf('https://eu.openrouter.ai/api/v1', 'new-api'), 'openrouter');
    assert.equal(costDialectOf('https://openrouter.ai.evil.example/v1', undefined), undefined);
    assert.equal(costDialectOf('http://127.0.0.1:4000/v1', 'litellm'), 'litellm');
    assert.equal(costDialectOf('http://127.0.0.1:4000/v1', 'new-api'), undefined);
    assert.equal(costDialectOf('not a url', 'openrouter'), 'openrouter');
  });

  void it('usage.include is asked of OpenRouter only', () => {
    assert.deepEqual(askCost({ model: 'm' }, 'openrouter'), { model: 'm', usage: { include: true } });
    assert.deepEqual(askCost({ model: 'm' }, 'litellm'), { model: 'm' });
    assert.deepEqual(askCost({ model: 'm' }, undefined), { model: 'm' });
  });

  void it('reads usage.cost from OpenRouter and the header from LiteLLM, never the other way round', () => {
    const usage = { prompt_tokens: 194, completion_tokens: 2, cost: 0.95 };
    assert.deepEqual(reportedCost(usage, undefined, 'openrouter'), { usd: 0.95, from: 'usage.cost' });
    assert.equal(reportedCost(usage, undefined, 'litellm'), undefined);
    assert.equal(reportedCost(usage, undefined, undefined), undefined);
    const h = headers({ 'x-litellm-response-cost': '0.000415' });
    assert.deepEqual(reportedCost(undefined, h, 'litellm'), { usd: 0.000415, from: 'x-litellm-response-cost' });
    assert.equal(reportedCost(undefined, h, 'openrouter'), undefined);
  });

  void it('refuses NaN, negative, absurd and empty figures', () => {
    for (const v of ['NaN', '-0.1', '1e9', '', 'free', 'Infinity'])
      assert.equal(reportedCost(undefined, headers({ 'x-litellm-response-cost': v }), 'litellm'), undefined, v);
    for (const v of [Number.NaN, -1, 1e9, '0.5', null])
      assert.equal(reportedCost({ cost: v }, undefined, 'openrouter'), undefined, String(v));
  });

  void it('the figure rides on the usage and is checked again where it is read', () => {
    const r: ChatResult = { message: { role: 'assistant', content: 'x' } };
    withReportedCost(r, { usd: 0.01, from: 'usage.cost' });
    assert.deepEqual(reportedCostIn(r.usage), { usd: 0.01, from: 'usage.cost' });
    assert.equal(reportedCostIn({ reported_cost: { usd: -1, from: 'usage.cost' } }), undefined);
    assert.equal(reportedCostIn({ reported_cost: { usd: 1, from: 'elsewhere' } }), undefined);
    assert.equal(reportedCostIn(undefined), undefined);
  });
});

void describe('over HTTP against the local gateway', () => {
  const or = useGateway({ billing: 'openrouter' });
  const ll = useGateway({ billing: 'litellm' });
  const na = useGateway();
  const req = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'hello' }] };
  const client = (g: typeof or, source: string | undefined) =>
    new GatewayClient({ baseUrl: `${g.url}/v1`, apiKey: g.keys.valid }, { billingSource: () => source });

  void it('OpenRouter: usage.include is sent, usage.cost comes back as the reported cost (stream and JSON)', async () => {
    const c = client(or, 'openrouter');
    const streamed = await c.streamChat(req);
    const sent = or.requests().find((r) => r.route === '/v1/chat/completions')!.body as Record<string, unknown>;
    assert.deepEqual(sent.usage, { include: true });
    const rc = reportedCostIn(streamed.usage);
    assert.equal(rc?.from, 'usage.cost');
    assert.equal(rc!.usd, or.account().used / 500_000);
    const whole = await c.chat(req);
    assert.equal(reportedCostIn(whole.usage)?.from, 'usage.cost');
  });

  void it('OpenRouter not yet detected (a local address): nothing asked, nothing believed', async () => {
    await client(or, undefined).streamChat(req);
    const sent = or.requests().find((r) => r.route === '/v1/chat/completions')!.body as Record<string, unknown>;
    assert.equal(sent.usage, undefined);
  });

  void it('LiteLLM: the x-litellm-response-cost header becomes the reported cost; nothing extra is sent', async () => {
    const r = await client(ll, 'litellm').streamChat(req);
    const sent = ll.requests().find((x) => x.route === '/v1/chat/completions')!.body as Record<string, unknown>;
    assert.equal(sent.usage, undefined);
    assert.deepEqual(reportedCostIn(r.usage), { usd: ll.account().used / 500_000, from: 'x-litellm-response-cost' });
  });

  void it('new-api: no reported cost, even when asked to believe one', async () => {
    const r = await client(na, 'new-api').streamChat(req);
    assert.equal(reportedCostIn(r.usage), undefined);
  });
});

void describe('costPlan', () => {
  void it('asks and settles for the detected dialect only', () => {
    const plan = costPlan('http://127.0.0.1:9/v1', 'litellm');
    assert.equal(plan.dialect, 'litellm');
    assert.deepEqual(plan.ask({ a: 1 }), { a: 1 });
    const r = plan.settle(
      { message: { role: 'assistant', content: '' } },
      headers({ 'x-litellm-response-cost': '0.5' }),
    );
    assert.deepEqual(reportedCostIn(r.usage), { usd: 0.5, from: 'x-litellm-response-cost' });
    const none = costPlan('http://127.0.0.1:9/v1', undefined);
    const untouched = none.settle(
      { message: { role: 'assistant', content: '' } },
      headers({ 'x-litellm-response-cost': '0.5' }),
    );
    assert.equal(untouched.usage, undefined);
  });
});
