import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConversationStore } from '../../../../../src/chat/history/core/store';
import { useGateway } from '../../../../support/helpers';
import { openSession, question } from '../../../../support/sessionHarness';

/**
 * The chat session (src/chat/session/core/session.ts) in plain node: turns go through real HTTP to the
 * local gateway, the store is read as the next start of the window would read it.
 */

const gw = useGateway();
const harness = () => openSession(gw);

void test('opening the conversation already shown from the history, mid-answer, neither stops the answer nor loses its messages', async () => {
  const h = harness();
  // A first finished turn puts the conversation into the history.
  void h.session.send('r1', question('first question'));
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r1'), 'the first answer');
  const id = h.session.conversationId;

  gw.fault({ match: { path: '/chat/completions' }, chunkDelayMs: 20 });
  void h.session.send('r2', question('#long 60'));
  await h.until(() => h.received.filter((m) => m.type === 'chat/delta').length >= 2, 'the second answer to stream');
  h.session.open(id);
  await h.until(
    () => h.received.some((m) => (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === 'r2'),
    'the second answer to end',
  );

  const end = h.received.find((m) => (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === 'r2');
  assert.equal(end?.type === 'chat/done' && end.message?.status, 'done', 'the answer ran to its end');
  // The next message goes into the same, complete conversation: nothing is dropped by its save.
  void h.session.send('r3', question('third question'));
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r3'), 'the third answer');
  const saved = new ConversationStore(h.storage).load(id);
  assert.deepEqual(
    saved?.messages.map((m) =>
      m.role === 'user' ? `user: ${m.text}` : `${m.role}: ${m.role === 'assistant' ? m.status : ''}`,
    ),
    [
      'user: first question',
      'assistant: done',
      'user: #long 60',
      'assistant: done',
      'user: third question',
      'assistant: done',
    ],
  );
  h.session.dispose();
});

void test('the question is saved as soon as it is sent, before its answer ends (a crash mid-answer does not lose it)', async () => {
  const h = harness();
  gw.fault({ match: { path: '/chat/completions' }, chunkDelayMs: 20 });
  void h.session.send('r1', question('#long 60'));
  await h.until(() => h.received.filter((m) => m.type === 'chat/delta').length >= 2, 'the answer to stream');
  const stored = new ConversationStore(h.storage);
  const mid = stored.load(h.session.conversationId);
  assert.equal(mid?.messages[0]?.role === 'user' && mid.messages[0].text, '#long 60');
  assert.equal(stored.activeId, h.session.conversationId, 'it is also the conversation shown after a restart');
  h.session.cancel('r1');
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r1'), 'the stop');
  h.session.dispose();
});

void test('an edited and resent question is stored as soon as it is sent, so a window closed mid-answer keeps the edit', async () => {
  const h = harness();
  void h.session.send('r1', question('what is two plus two'));
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r1'), 'the first answer');
  const id = h.session.conversationId;

  gw.fault({ match: { path: '/chat/completions' }, chunkDelayMs: 50 });
  void h.session.editResend('r2', 'what is three plus three #long 40');
  await h.until(
    () => h.received.filter((m) => m.type === 'chat/delta' && m.requestId === 'r2').length >= 2,
    'the new answer to stream',
  );
  // Read the storage as a reloaded window would, while the answer is still streaming.
  const midAnswer = new ConversationStore(h.storage).load(id);
  assert.deepEqual(
    midAnswer?.messages.map((m) => (m.role === 'user' ? `user: ${m.text}` : m.role)),
    ['user: what is three plus three #long 40'],
    'the stored conversation still has the old question or its answer',
  );
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r2'), 'the new answer to end');
  h.session.dispose();
});

void test('cutting the conversation back from an answer (Restore) removes it and what followed, and the store keeps the cut', async () => {
  const h = harness();
  await h.session.send('r1', question('first'));
  await h.session.send('r2', question('second'));
  const answers = h.session.shown.messages.filter((m) => m.role === 'assistant');
  assert.equal(answers.length, 2);
  const second = answers[1];
  assert.ok(second);
  assert.equal(await h.session.cutFrom(second.id), true);
  assert.deepEqual(
    h.session.shown.messages.map((m) => (m.role === 'user' ? m.text : m.role)),
    ['first', 'assistant', 'second'],
  );
  assert.equal(await h.session.cutFrom('no-such-message'), false);
  const stored = new ConversationStore(h.storage).load(h.session.conversationId);
  assert.equal(stored?.messages.length, 3, 'the cut is saved');
  assert.ok(h.received.some((m) => m.type === 'chat/conversation' && m.conversation.messages.length === 3));
  h.session.dispose();
});
