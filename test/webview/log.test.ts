import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { GatewayClient } from '../../src/api/client';
import { newConversation } from '../../src/chat/history/core/store';
import type { AssistantMessage, Conversation, HostMessage } from '../../src/shared/protocol';
import { startGateway, type Gateway } from '../gateway/server';
import { DEFAULT_PARAMS, launch, openHarness, snapshot, type Harness } from './harness';

/*
 * The log as components: a long conversation opens at its end and fills in above; an update to
 * one message touches that message's DOM only; a card that came before its answer moves there.
 */

let browser: Browser;
let gw: Gateway;
let texts: string[] = [];
before(async () => {
  browser = await launch();
  gw = await startGateway();
  const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
  for (const prompt of ['#markdown', 'what does this return?']) {
    const r = await client.streamChat(
      { model: 'gw-chat', messages: [{ role: 'user', content: prompt }] },
      { onEvent: () => undefined },
    );
    texts.push(r.message.content ?? '');
  }
  texts = texts.filter(Boolean);
});
after(async () => {
  await browser.close();
  await gw.close();
});

const answer = (id: string, content: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  id,
  role: 'assistant',
  content,
  status: 'done',
  requestedModel: 'gw-chat',
  createdAt: 2,
  ...extra,
});

function conversation(turns: number): Conversation {
  const c = { ...newConversation(1), id: 'c-long' };
  for (let i = 0; i < turns; i++) {
    c.messages.push({ id: `u${i}`, role: 'user', text: `question ${i}`, images: [], contexts: [], createdAt: i });
    c.messages.push(answer(`a${i}`, `${texts[i % texts.length] ?? ''}\n\nAnswer ${i}.`));
  }
  return c;
}

const open = (c: Conversation): HostMessage => ({
  type: 'chat/conversation',
  conversation: c,
  defaults: DEFAULT_PARAMS,
  defaultModel: 'gw-chat',
  defaultSystemPrompt: '',
});

const ids = (h: Harness) =>
  h.page.locator('.log article.msg').evaluateAll((els) => els.map((e) => e.getAttribute('data-message-id') ?? ''));

void test('a 200-turn conversation opens with its first messages rendered at once, then every message fills in below, in order, and the view ends at the newest', async () => {
  const h = await openHarness(browser);
  await h.send(snapshot());
  const c = conversation(200);
  await h.send(open(c));
  // textContent: in a log this long a message off screen is not rendered (content-visibility),
  // so its innerText is empty until it is scrolled to; its text is in the DOM all the same.
  assert.match((await h.page.locator('article[data-message-id="a0"] .md').textContent()) ?? '', /Answer 0\./);
  // The rest arrives in slices after the first screen, below it.
  for (let i = 0; (await h.page.locator('.log article.msg').count()) < 400; i++) {
    if (i > 200) assert.fail('the later messages never appeared');
    await h.page.waitForTimeout(25);
  }
  assert.deepEqual(
    await ids(h),
    c.messages.map((m) => m.id),
  );
  // Opening a conversation shows its newest message: the view follows the end while the slices
  // come in, instead of staying at the end of the first slice (message 30 of 400).
  await h.page.waitForTimeout(100);
  const gap = await h.page
    .locator('.log')
    .evaluate((log) => Math.round(log.scrollHeight - log.clientHeight - log.scrollTop));
  assert.ok(Math.abs(gap) <= 2, `the view is ${gap} px above the end`);
  assert.match(await h.page.locator('article[data-message-id="a199"] .md').innerText(), /Answer 199\./);
  assert.equal(
    (await h.page.locator('article[data-message-id="a198"] [role="group"][aria-label="Code block"]').count()) > 0,
    (texts[0] ?? '').includes('```'),
  );
  await h.page.context().close();
});

void test('a long conversation reloaded mid-answer mounts every message at once, so the stream goes on', async () => {
  const h = await openHarness(browser);
  const c = conversation(100);
  c.messages.push(
    { id: 'u-last', role: 'user', text: 'one more', images: [], contexts: [], createdAt: 9 },
    answer('a-last', 'So far', { status: 'streaming' }),
  );
  await h.send(snapshot({ conversation: c, busyRequestId: 'r1' }));
  assert.equal(await h.page.locator('.log article.msg').count(), 202);
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a-last', content: ' and the rest.' });
  await h.send({ type: 'chat/done', requestId: 'r1', message: answer('a-last', 'So far and the rest.') });
  assert.equal(await h.page.locator('article[data-message-id="a-last"] .md').innerText(), 'So far and the rest.');
  await h.page.context().close();
});

void test("an update to one answer changes that answer's DOM only", async () => {
  const h = await openHarness(browser);
  await h.send(snapshot());
  const c = conversation(10);
  await h.send(open(c));
  // Code blocks shown before highlight.js was loaded are highlighted later, in idle time
  // (markdown.ts): that is done first, so that only the update below changes the log.
  const settled =
    '[...document.querySelectorAll(\'.log pre > code[class*="language-"]\')].every((c) => c.dataset.hl || c.querySelector("span"))';
  for (let i = 0; i < 200 && !(await h.page.evaluate(settled)); i++) await h.frames();
  assert.equal(await h.page.evaluate(settled), true, 'the code blocks were never highlighted');
  // Record every DOM change in the log from here on.
  await h.page.evaluate(`(() => {
    window.__touched = [];
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        window.__touched.push(el.closest('article') ? el.closest('article').getAttribute('data-message-id') : 'outside');
      }
    }).observe(document.querySelector('.log'), { subtree: true, childList: true, attributes: true, characterData: true });
  })()`);
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('a4', 'A **revised** answer.') });
  assert.equal(await h.page.locator('article[data-message-id="a4"] .md strong').innerText(), 'revised');
  const touched = (await h.page.evaluate('window.__touched')) as string[];
  assert.ok(touched.length > 0, 'the update changed the DOM');
  assert.deepEqual([...new Set(touched)], ['a4']);
  await h.page.context().close();
});

void test('a tool card that arrives before its answer is shown at the end of the log, then moves under the answer that names its call', async () => {
  const h = await openHarness(browser);
  await h.send(snapshot());
  await h.send({
    type: 'tools/call',
    update: { callId: 'call_9', name: 'read_file', argumentsJson: '{"path":"a.ts"}', state: 'running', readOnly: true },
  });
  assert.equal(await h.page.locator('.log > section.toolcard[data-call-id="call_9"]').count(), 1);
  await h.send({
    type: 'chat/message',
    requestId: 'r1',
    message: answer('a1', '', {
      toolCalls: [{ id: 'call_9', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }],
    }),
  });
  assert.equal(await h.page.locator('section.toolcard').count(), 1, 'one card, not two');
  const card = h.page.locator('article[data-message-id="a1"] section.toolcard[data-call-id="call_9"]');
  assert.match((await card.getAttribute('class')) ?? '', /state-running/, 'it keeps its live state');
  await h.page.context().close();
});
