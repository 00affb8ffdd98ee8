import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HostMessage } from '../../src/shared/protocol';
import { ConversationStore } from '../../src/chat/history/core/store';
import { openSession, question, SETTINGS } from '../support/sessionHarness';
import { asGateway, useLlama, weatherTools } from './helpers';

/**
 * The chat session (src/chat/session/core/session.ts, as test/support/sessionHarness.ts runs it in plain
 * node) against llama.cpp's real llama-server: what a user of the chat panel gets from it.
 */

// The alias is the harness's chat model, so answers are not flagged as from another model.
const llama = useLlama({ ctx: 2048, slots: 1, alias: SETTINGS.chatModel });

const ended = (requestId: string) => (m: HostMessage) =>
  (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === requestId;

void test('a question in the chat streams an answer from llama-server, stored done, with no error', async () => {
  const h = openSession(asGateway(llama), undefined, { timeoutMs: 30_000 });
  void h.session.send('r1', question('hello, who are you?'));
  await h.until(() => h.received.some(ended('r1')), 'the answer');
  const end = h.received.find(ended('r1'));
  assert.equal(end?.type, 'chat/done', JSON.stringify(end));
  assert.ok(
    h.received.some((m) => m.type === 'chat/delta' && m.requestId === 'r1'),
    'text streamed',
  );
  const saved = new ConversationStore(h.storage).load(h.session.conversationId);
  const answer = saved?.messages[1];
  assert.equal(answer?.role === 'assistant' && answer.status, 'done');
  assert.deepEqual(h.logs, []);
  h.session.dispose();
});

void test('a tool round through the session: the 32-character call id is answered and the model answers in text', async () => {
  const h = openSession(asGateway(llama), undefined, { timeoutMs: 30_000 });
  const tools = weatherTools();
  h.session.setToolExecutor(tools);
  void h.session.send('r1', question('what is the weather in paris?'));
  await h.until(() => h.received.some(ended('r1')), 'the answer');
  assert.equal(h.received.find(ended('r1'))?.type, 'chat/done', h.logs.join(' | '));
  assert.equal(tools.calls, 1, 'one tool round (the model calls once, then answers)');
  assert.match(tools.ids[0] ?? '', /^[A-Za-z0-9]{32}$/, 'the tool is asked with the wire id');
  const saved = new ConversationStore(h.storage).load(h.session.conversationId);
  const roles = saved?.messages.map((m) => m.role);
  assert.deepEqual(roles?.slice(0, 1), ['user']);
  assert.equal(roles?.[roles.length - 1], 'assistant', `ends with the text answer: ${roles?.join(', ')}`);
  assert.deepEqual(h.logs, []);
  h.session.dispose();
});
