import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GatewayClient } from '../../src/api/client';
import { newConversation } from '../../src/chat/history/core/store';
import { runTurn } from '../../src/chat/session/core/turnRunner';
import type { Conversation, HostMessage, UserMessage } from '../../src/shared/protocol';
import { startGateway, type Gateway } from '../gateway/server';
import { DEFAULT_PARAMS, openHarness, snapshot, type Harness, useBrowser } from './harness';

/*
 * A window that died before an answer arrived comes back with the last question unanswered (it is
 * stored when sent). The chat must offer to answer it (Regenerate: the host's chat/regenerate
 * answers an unanswered last question), not only Edit and resend.
 */

const browser = useBrowser();
let gw: Gateway;
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await gw.close();
});

const question = (id: string, text: string): UserMessage => ({
  id,
  role: 'user',
  text,
  images: [],
  contexts: [],
  createdAt: 1,
});

/** The labels of the buttons on one message, in order. */
async function buttonsOn(h: Harness, messageId: string): Promise<string[]> {
  const buttons = h.page.locator(`article[data-message-id="${messageId}"] .msg-actions button`);
  const out: string[] = [];
  for (let i = 0; i < (await buttons.count()); i++) {
    const b = buttons.nth(i);
    out.push((await b.getAttribute('aria-label')) ?? (await b.textContent()) ?? '');
  }
  return out;
}

void test('an unanswered last question offers Regenerate, which asks the host to answer it; the answer then carries the actions', async () => {
  // Earlier question answered for real; the second one is what a crash left unanswered.
  const c: Conversation = { ...newConversation(1), id: 'c-crash', messages: [question('u1', 'first question')] };
  const backend = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
  const turn = (requestId: string, into: HostMessage[]) =>
    runTurn({
      backend,
      conversation: c,
      defaults: { model: 'gw-chat', systemPrompt: '', params: DEFAULT_PARAMS },
      maxRounds: 1,
      signal: new AbortController().signal,
      callbacks: {
        onMessage: (message) => into.push({ type: 'chat/message', requestId, message }),
        onDelta: () => undefined,
      },
    });
  const first = await turn('r0', []);
  assert.equal(first.status, 'done', first.error?.detail);
  c.messages.push(question('u2', 'second question'));

  const h = await openHarness(browser());
  await h.send(snapshot({ conversation: structuredClone(c) }));
  assert.deepEqual(
    await buttonsOn(h, 'u2'),
    ['Regenerate', 'Edit and resend'],
    'the unanswered question can be answered',
  );
  assert.deepEqual(
    await buttonsOn(h, first.last?.id ?? ''),
    ['Copy message'],
    'the answer to the earlier question is not the one Regenerate replaces',
  );
  assert.deepEqual(await buttonsOn(h, 'u1'), [], 'an earlier question has no actions');

  await h.clearPosted();
  await h.page.locator('article[data-message-id="u2"] .msg-actions button[aria-label="Regenerate"]').click();
  const posted = await h.posted();
  assert.equal(posted.length, 1, JSON.stringify(posted));
  assert.equal(posted[0]?.type, 'chat/regenerate');
  const requestId = String(posted[0]?.requestId ?? '');
  assert.ok(requestId, 'the request carries an id');
  await h.frames();
  assert.deepEqual(await buttonsOn(h, 'u2'), [], 'no actions on the question while it is being answered');
  assert.ok(await h.page.locator('.busy').count(), 'the chat shows it is busy');

  // What the host does for that request: answers the question over real HTTP.
  const messages: HostMessage[] = [];
  const answered = await turn(requestId, messages);
  assert.equal(answered.status, 'done', answered.error?.detail);
  assert.equal(answered.last?.content, 'Echo: second question');
  for (const m of messages) await h.send(m);
  await h.send({ type: 'chat/done', requestId, message: answered.last });
  const answerId = answered.last?.id ?? '';
  assert.match(
    (await h.page.locator(`article[data-message-id="${answerId}"]`).textContent()) ?? '',
    /Echo: second question/,
  );
  assert.deepEqual(await buttonsOn(h, answerId), ['Copy message', 'Regenerate'], 'the new answer carries Regenerate');
  assert.deepEqual(await buttonsOn(h, 'u2'), ['Edit and resend'], 'an answered question offers only Edit and resend');
  await h.page.context().close();
});

void test('no Regenerate on an unanswered question while an answer is running', async () => {
  const c: Conversation = { ...newConversation(1), id: 'c-busy', messages: [question('u1', 'still asking')] };
  const h = await openHarness(browser());
  await h.send(snapshot({ conversation: c, busyRequestId: 'r-running' }));
  assert.deepEqual(await buttonsOn(h, 'u1'), []);
  await h.send({ type: 'chat/done', requestId: 'r-running' });
  assert.deepEqual(await buttonsOn(h, 'u1'), ['Regenerate', 'Edit and resend'], 'offered once nothing is running');
  await h.page.context().close();
});
