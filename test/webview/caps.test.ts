import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CapPause } from '../../src/shared/protocol';
import { axeViolations } from './axe';
import { openHarness, snapshot, useBrowser } from './harness';

/*
 * The spend caps on the page (CapsCard.tsx, in the panels' chunk): the card that pauses the tool
 * loop shows what was spent, what the next step would cost at most and the two choices; a choice
 * is posted once and the card goes; `caps/resolved` removes a card decided elsewhere (another
 * window, the Stop button). The pre-send line shows the next prompt's cost above the threshold.
 */

const browser = useBrowser();

const USD = { kind: 'USD', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '$' } as const;

const pause = (id: string): CapPause => ({
  id,
  kind: 'turn',
  spent: 48_000,
  cap: 50_000,
  prompt: 5_000,
  atMost: 21_000,
  upTo: 98_000,
  unit: USD,
  model: 'gw-chat',
});

void test('the cap card: figures with their unit, Continue up to …, Stop posts once and the card goes', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({ type: 'caps/pause', pause: pause('cap1') });
  const card = h.page.locator('section.cap-card');
  await card.waitFor({ state: 'visible' });
  const text = await card.innerText();
  assert.match(text, /Paused at your spend cap for this turn/);
  assert.match(text, /Spent so far: \$0\.096 of \$0\.10\./);
  assert.match(text, /The next step \(gw-chat\) would cost at most \$0\.042 \(its prompt about \$0\.01\)\./);
  const serious = (await axeViolations(h.page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], JSON.stringify(serious));
  await card.locator('button', { hasText: 'Continue up to $0.196' }).waitFor({ state: 'visible' });
  await h.clearPosted();
  await card.locator('button[data-action="stop"]').click();
  await card.waitFor({ state: 'detached' });
  assert.deepEqual(
    (await h.posted()).filter((m) => m.type === 'caps/decide'),
    [{ type: 'caps/decide', id: 'cap1', decision: 'stop' }],
  );
  // A card decided elsewhere goes when the host says so.
  await h.send({ type: 'caps/pause', pause: pause('cap2') });
  await card.waitFor({ state: 'visible' });
  await h.send({ type: 'caps/resolved', id: 'cap2' });
  await card.waitFor({ state: 'detached' });
  await h.page.context().close();
});

void test('the pre-send line: the next prompt at the model price, shown only above the threshold', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  const meter = {
    model: 'gw-chat',
    window: 100_000,
    source: 'default',
    system: 1000,
    tools: 1000,
    history: 2000,
    attachments: 0,
    reserve: 4096,
    charsPerToken: 4,
    toolMode: 'all',
    fixedTooLarge: false,
  } as const;
  await h.send({ type: 'context/meter', meter });
  // 4,000 tokens at 10 quota each is 40,000 quota ($0.08): above a threshold of $0.05.
  await h.send({ type: 'caps/price', price: { model: 'gw-chat', perToken: 10, above: 25_000, unit: USD } });
  const line = h.page.locator('.cap-prompt');
  await line.waitFor({ state: 'visible' });
  assert.match(
    await line.innerText(),
    /The next message's prompt: about \$0\.08 \(4000 tokens at the price of gw-chat\)/,
  );
  // Below the threshold (a cheaper model): no line.
  await h.send({ type: 'caps/price', price: { model: 'gw-chat', perToken: 1, above: 25_000, unit: USD } });
  await line.waitFor({ state: 'detached' });
  await h.page.context().close();
});
