// Where the chat asks an answer's price and the account answers (Services.answerCosts): no price
// without a pricer, the last pricer offered wins until it is disposed, and a failing pricer gives
// "unknown" (logged) instead of failing the chat.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnswerCosts, type AnswerCostQuery } from '../../../src/platform/answerCosts';
import type { AnswerCost } from '../../../src/shared/protocol/cost';

const q: AnswerCostQuery = { gateway: 'http://gw/v1', model: 'gw-chat', usage: { prompt_tokens: 3 } };
const USD = { kind: 'USD' as const, quotaPerUnit: 500_000, rateMicro: 1, symbol: '$' };
const cost = (quota: number): AnswerCost => ({ quota, unit: USD, estimate: false });

void test('without a pricer an answer has no price', async () => {
  assert.equal(await new AnswerCosts({ warn: () => undefined }).price(q), undefined);
});

void test('the last pricer offered answers; disposing an older one leaves it, disposing it leaves none', async () => {
  const costs = new AnswerCosts({ warn: () => undefined });
  const asked: AnswerCostQuery[] = [];
  const first = costs.offer(() => Promise.resolve(cost(1)));
  const second = costs.offer((x) => {
    asked.push(x);
    return Promise.resolve(cost(2));
  });
  assert.equal((await costs.price(q))?.quota, 2);
  assert.deepEqual(asked, [q]);
  first.dispose();
  assert.equal((await costs.price(q))?.quota, 2);
  second.dispose();
  assert.equal(await costs.price(q), undefined);
});

void test('a pricer that fails gives no price and the log says why', async () => {
  const warned: string[] = [];
  const costs = new AnswerCosts({ warn: (m) => warned.push(m) });
  costs.offer(() => Promise.reject(new Error('prices unreadable')));
  assert.equal(await costs.price(q), undefined);
  assert.deepEqual(warned, ["The answer's cost is unknown: prices unreadable"]);
});
