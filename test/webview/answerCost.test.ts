import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Locator } from 'playwright-core';
import type { AnswerCost, AssistantMessage, Conversation, HostMessage } from '../../src/shared/protocol';
import { axeViolations } from './axe';
import { openHarness, snapshot, useBrowser } from './harness';

/*
 * The cost under an answer and the conversation's cost in the header: exact figures plain, an
 * estimate with "≈" and, for a screen reader and the tooltip, why; a cost that arrives after the
 * answer (`chat/cost`) shows and adds up; a cost for another conversation is ignored.
 */

const browser = useBrowser();

const USD = { kind: 'USD', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '$' } as const;

function answer(id: string, cost?: AnswerCost): AssistantMessage {
  return {
    id,
    role: 'assistant',
    content: `answer ${id}`,
    status: 'done',
    requestedModel: 'gw-chat',
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    ...(cost ? { cost } : {}),
    createdAt: 1,
  };
}

const conversation = (messages: Conversation['messages']): Conversation => ({
  id: 'c1',
  title: 't',
  createdAt: 1,
  updatedAt: 1,
  model: 'gw-chat',
  params: {},
  messages,
});

void test('the cost line under an answer: exact, estimated (≈ with its reason), unknown; the header adds them up', async () => {
  const h = await openHarness(browser());
  await h.send(
    snapshot({
      conversation: conversation([
        { id: 'u1', role: 'user', text: 'q', images: [], contexts: [], createdAt: 1 },
        answer('a1', { quota: 615, unit: USD, estimate: false }),
        answer('a2', { quota: 5000, unit: USD, estimate: true, reason: 'no-usage' }),
        answer('a3'),
        answer('a4', { quota: 500, unit: USD, estimate: false, reportedBy: 'x-litellm-response-cost' }),
      ]),
    }),
  );
  const line = (id: string) => h.page.locator(`article[data-message-id="${id}"] .meta .cost`);
  // What is on screen: the figure, without the screen reader's explanation.
  const shown = (l: Locator) => l.evaluate((el) => el.firstChild?.textContent ?? '');
  assert.equal(await shown(line('a1')), 'Cost: $0.0012');
  // Which figure it is (issue 39): computed here, or reported by the gateway itself.
  assert.match((await line('a1').getAttribute('title')) ?? '', /Computed here: usage × price/);
  assert.equal(await shown(line('a4')), 'Cost: $0.001');
  assert.match((await line('a4').getAttribute('title')) ?? '', /Reported by the gateway \(x-litellm-response-cost\)/);
  assert.equal(await shown(line('a2')), 'Cost: ≈$0.01');
  assert.match((await line('a2').getAttribute('title')) ?? '', /reported no token usage/);
  // The reason is in the text a screen reader reads, not only in the tooltip.
  assert.match((await line('a2').textContent()) ?? '', /≈\$0\.01 \(Estimate: the gateway reported no token usage/);
  assert.equal(await line('a3').count(), 0, 'no cost known yet: no line');
  const total = h.page.locator('.cost-total');
  assert.equal(await shown(total), 'Conversation cost: ≈$0.0122');
  assert.match((await total.getAttribute('title')) ?? '', /Includes estimates/);

  // The third answer's cost arrives after it ended: no price for the model.
  await h.send({
    type: 'chat/cost',
    conversationId: 'c1',
    messageId: 'a3',
    cost: { unit: USD, estimate: true, reason: 'no-price' },
  });
  assert.equal(await shown(line('a3')), 'Cost: unknown');
  assert.match((await line('a3').textContent()) ?? '', /No price is known for this model/);
  assert.match((await total.getAttribute('title')) ?? '', /answers without a figure/);
  // Another conversation's cost changes nothing here.
  await h.send({
    type: 'chat/cost',
    conversationId: 'other',
    messageId: 'a1',
    cost: { quota: 9e9, unit: USD, estimate: false },
  });
  assert.equal(await shown(line('a1')), 'Cost: $0.0012');

  const serious = (await axeViolations(h.page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], JSON.stringify(serious));
  await h.page.context().close();
});

void test('exact costs only: the header total is plain, and a new exact cost updates it', async () => {
  const h = await openHarness(browser());
  const msgs: HostMessage[] = [
    snapshot({
      conversation: conversation([answer('a1', { quota: 500_000, unit: USD, estimate: false }), answer('a2')]),
    }),
    { type: 'chat/cost', conversationId: 'c1', messageId: 'a2', cost: { quota: 250_000, unit: USD, estimate: false } },
  ];
  await h.send(msgs[0]!);
  assert.equal(await h.page.locator('.cost-total').innerText(), 'Conversation cost: $1.00');
  await h.send(msgs[1]!);
  assert.equal(await h.page.locator('.cost-total').innerText(), 'Conversation cost: $1.50');
  assert.equal(await h.page.locator('.cost-total').getAttribute('title'), null);
  await h.page.context().close();
});

void test("a cost that came before the answer's last copy (chat/done without it) stays under the answer", async () => {
  const h = await openHarness(browser());
  await h.send(snapshot({ conversation: conversation([answer('a1')]) }));
  await h.send({
    type: 'chat/cost',
    conversationId: 'c1',
    messageId: 'a1',
    cost: { quota: 500, unit: USD, estimate: false },
  });
  const line = h.page.locator('article[data-message-id="a1"] .meta .cost');
  await line.waitFor({ state: 'visible' });
  await h.send({ type: 'chat/done', requestId: 'r1', message: { ...answer('a1'), content: 'answer a1, final' } });
  await h.page.locator('article[data-message-id="a1"]', { hasText: 'answer a1, final' }).waitFor({ state: 'visible' });
  // The figure on screen; the screen reader's "Computed here" follows it in its own span.
  assert.equal(await line.evaluate((el) => el.firstChild?.textContent ?? ''), 'Cost: $0.001');
  assert.match((await line.getAttribute('title')) ?? '', /Computed here/);
  await h.page.context().close();
});
