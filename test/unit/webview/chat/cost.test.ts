// The header's conversation cost with each agent's share (webview/chat/cost.ts).
import '../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AnswerCost } from '../../../../src/shared/protocol';
import { agentShares, answerCostView, totalCostView } from '../../../../webview/chat/cost';
import { createStringsModel } from '../../../../webview/chat/models/strings';
import { USD } from './models/fixtures';

const { t } = createStringsModel();
const cost = (quota: number | undefined, estimate = false): AnswerCost => ({
  ...(quota !== undefined ? { quota } : {}),
  unit: USD,
  estimate,
  ...(estimate ? { reason: 'no-price' as const } : {}),
});
const names: Record<string, string> = { plan: 'Plan', agent: 'Agent' };
const nameOf = (id: string) => names[id] ?? id;

void test('each agent gets its share of the total, in the order they first answered', () => {
  const costs = [cost(5_000), cost(20_000), cost(500)];
  const view = totalCostView(t, costs, { agents: ['plan', 'agent', 'plan'], nameOf });
  assert.equal(view?.text, 'Conversation cost: $0.051 (Plan $0.011 · Agent $0.04)');
});

void test('one agent only: no shares, the total as before', () => {
  assert.equal(agentShares(t, [cost(5_000), cost(5_000)], ['agent', 'agent'], nameOf), '');
  assert.equal(totalCostView(t, [cost(5_000)])?.text, 'Conversation cost: $0.01');
});

void test("an agent's share without a figure is an estimate", () => {
  assert.equal(
    agentShares(t, [cost(undefined, true), cost(5_000)], ['plan', 'agent'], nameOf),
    'Plan ≈$0.00 · Agent $0.01',
  );
});

void test("an answer's cost says the prompt's cached share and what it saved, when the gateway said", () => {
  const c = cost(2_500);
  assert.equal(
    answerCostView(t, { ...c, cached: { percent: 87, saved: 15_000 } }).text,
    'Cost: $0.005 · 87% cached, saved $0.03',
  );
  assert.equal(answerCostView(t, { ...c, cached: { percent: 40 } }).text, 'Cost: $0.005 · 40% cached');
  assert.equal(answerCostView(t, c).text, 'Cost: $0.005');
});

void test("an answer's cost line explains itself on hover: what the figure counts and where the price came from", () => {
  const computed = answerCostView(t, { ...cost(2_500), priceFrom: 'gateway' }).why;
  assert.match(computed, /^Computed here: usage × price\./);
  assert.match(computed, /prompt and output tokens the gateway reported/);
  assert.match(computed, /from the gateway's price list/);
  const own = answerCostView(t, { ...cost(2_500), priceFrom: 'settings' }).why;
  assert.match(own, /from your setting gatewayStudio\.spend\.prices/);
  const counted = answerCostView(t, {
    quota: 60,
    unit: USD,
    estimate: true,
    reason: 'no-usage',
    priceFrom: 'settings',
  }).why;
  assert.match(counted, /tokens were counted here.*from your setting gatewayStudio\.spend\.prices/);
  const reported = answerCostView(t, { ...cost(500), reportedBy: 'usage.cost' }).why;
  assert.match(reported, /Reported by the gateway \(usage\.cost\)\. What the gateway says it charged/);
  assert.match(answerCostView(t, cost(undefined, true)).why, /No price is known for this model/);
});
