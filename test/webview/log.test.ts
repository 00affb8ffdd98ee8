import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GatewayClient } from '../../src/api/client';
import { newConversation } from '../../src/chat/history/core/store';
import type { AssistantMessage, Conversation, HostMessage } from '../../src/shared/protocol';
import { startGateway, type Gateway } from '../gateway/server';
import { windowStart } from '../../webview/chat/models/logWindow';
import { DEFAULT_PARAMS, openHarness, snapshot, type Harness, useBrowser } from './harness';

/*
 * The log as components: a long conversation opens at its end with its newest messages, and
 * earlier ones mount as the user goes up to them; an update to one message touches that
 * message's DOM only; a card that came before its answer moves there.
 */

const browser = useBrowser();
let gw: Gateway;
let texts: string[] = [];
before(async () => {
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

void test('a 200-turn conversation opens at its newest messages with the view at the end; earlier ones mount as the user scrolls up, keeping what they read in place, and the button mounts the rest', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  const c = conversation(200);
  await h.send(open(c));
  // The newest screenfuls only (models/logWindow.ts): the oldest message is not in the DOM.
  const first = await ids(h);
  const shown = c.messages.length - windowStart(c.messages);
  assert.ok(shown >= 4 && shown < 30, `${shown} messages in the first window`);
  assert.deepEqual(
    first,
    c.messages.slice(-shown).map((m) => m.id),
  );
  assert.equal(await h.page.locator('article[data-message-id="a0"]').count(), 0);
  assert.match(await h.page.locator('article[data-message-id="a199"] .md').innerText(), /Answer 199\./);
  assert.equal(
    (await h.page.locator('article[data-message-id="a198"] [role="group"][aria-label="Code block"]').count()) > 0,
    (texts[0] ?? '').includes('```'),
  );
  await h.page.waitForTimeout(100);
  const log = h.page.locator('.log');
  const gap = await log.evaluate((el) => Math.round(el.scrollHeight - el.clientHeight - el.scrollTop));
  assert.ok(Math.abs(gap) <= 2, `the view is ${gap} px above the end`);
  assert.equal(await h.page.getByRole('button', { name: `Show ${400 - shown} earlier messages` }).count(), 1);

  // The user scrolls to the top of what is mounted: the next 40 mount above, and the message
  // that was at the top of the view stays where it was on screen.
  const top = first[0] ?? '';
  const at = () =>
    h.page.locator(`article[data-message-id="${top}"]`).evaluate((el) => Math.round(el.getBoundingClientRect().top));
  await log.evaluate((el) => el.scrollTo(0, 0));
  const before = await at();
  for (let i = 0; (await h.page.locator('.log article.msg').count()) < shown + 40; i++) {
    if (i > 100) assert.fail('scrolling to the top mounted nothing earlier');
    await h.page.waitForTimeout(20);
  }
  await h.page.waitForTimeout(200);
  // One slice of 40, or more if the top of the window was still near the view after it.
  const now = await ids(h);
  assert.equal((now.length - shown) % 40, 0, `${now.length} messages mounted`);
  assert.deepEqual(
    now,
    c.messages.slice(-now.length).map((m) => m.id),
    'in order, ending at the newest',
  );
  assert.ok(Math.abs((await at()) - before) <= 2, `what the user read moved by ${(await at()) - before} px`);
  assert.notEqual(await log.evaluate((el) => el.scrollTop), 0, 'the view was kept on what was read');

  // The button mounts every earlier message (for find in page), a step per frame, in order.
  // By keyboard: focusing the button scrolls it into view, which mounts a slice and moves the
  // button up (the text read is kept in place), so a click could land where it was; focus stays.
  await h.page.getByRole('button', { name: /earlier messages/ }).focus();
  await h.page.keyboard.press('Enter');
  for (let i = 0; (await h.page.locator('.log article.msg').count()) < 400; i++) {
    if (i > 200) assert.fail(`the button mounted ${await h.page.locator('.log article.msg').count()} of 400 messages`);
    await h.page.waitForTimeout(20);
  }
  assert.deepEqual(
    await ids(h),
    c.messages.map((m) => m.id),
  );
  assert.equal(await h.page.getByRole('button', { name: /earlier messages/ }).count(), 0);
  assert.match((await h.page.locator('article[data-message-id="a0"] .md').textContent()) ?? '', /Answer 0\./);
  await h.page.context().close();
});

void test('a long conversation reloaded mid-answer mounts its whole running turn, however long, so the stream and its cards go on', async () => {
  const h = await openHarness(browser());
  const c = conversation(100);
  c.messages.push({ id: 'u-last', role: 'user', text: 'one more', images: [], contexts: [], createdAt: 9 });
  // A turn of 35 earlier answers (tool rounds) before the one still streaming: longer than a screenful.
  for (let i = 0; i < 35; i++) c.messages.push(answer(`a-round${i}`, `Round ${i}.`));
  c.messages.push(answer('a-last', 'So far', { status: 'streaming' }));
  await h.send(snapshot({ conversation: c, busyRequestId: 'r1' }));
  const shown = await ids(h);
  assert.equal(shown[0], 'u-last', 'the turn is mounted from its question on');
  assert.deepEqual(
    shown,
    c.messages.slice(-37).map((m) => m.id),
  );
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a-last', content: ' and the rest.' });
  await h.send({ type: 'chat/done', requestId: 'r1', message: answer('a-last', 'So far and the rest.') });
  assert.equal(await h.page.locator('article[data-message-id="a-last"] .md').innerText(), 'So far and the rest.');
  await h.page.context().close();
});

void test("an update to one answer changes that answer's DOM only", async () => {
  const h = await openHarness(browser());
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
  // a8: inside the first window (models/logWindow.ts), as the answers a user sees are.
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('a8', 'A **revised** answer.') });
  assert.equal(await h.page.locator('article[data-message-id="a8"] .md strong').innerText(), 'revised');
  const touched = (await h.page.evaluate('window.__touched')) as string[];
  assert.ok(touched.length > 0, 'the update changed the DOM');
  assert.deepEqual([...new Set(touched)], ['a8']);
  await h.page.context().close();
});

void test('a tool card that arrives before its answer is shown at the end of the log, then moves under the answer that names its call', async () => {
  const h = await openHarness(browser());
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
