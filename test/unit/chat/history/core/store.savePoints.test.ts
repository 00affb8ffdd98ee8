import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConversationStore } from '../../../../../src/chat/history/core/store';
import type { Conversation } from '../../../../../src/shared/protocol';
import { useGateway } from '../../../../support/helpers';
import { MemoryStorage } from '../../../../support/memoryStorage';
import { copyStorage, openSession, question } from '../../../../support/sessionHarness';

/**
 * What the stored conversation holds while an answer is still streaming, read as a window that
 * died at that moment would read it on its next start (a fresh ConversationStore over the same
 * storage, no end-of-turn handling). Covers the actions that change the conversation before their
 * answer: Regenerate and Retry (the old answer is removed) and Continue (an automatic question is
 * added). The session runs in plain node against the local gateway over real HTTP; a stalled
 * stream holds the answer open while the store is read.
 */

const gw = useGateway();

const CONTINUE_TEXT = 'Continue exactly where your last answer stopped.';

/**
 * A session over `storage` (by default a new empty one), as a window that starts with it.
 * `crash()` copies the storage as it is now: what a window killed at this moment leaves behind,
 * since nothing the session does afterwards (its end-of-turn save) reaches the copy.
 */
function harness(storage = new MemoryStorage()) {
  const { session, received, until } = openSession(gw, storage);
  const ended = (requestId: string) => () =>
    received.some((m) => (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === requestId);
  const deltas = (requestId: string) =>
    received.filter((m) => m.type === 'chat/delta' && m.requestId === requestId).length;
  const crash = () => copyStorage(storage);
  /** The conversation as the next start of the window would load it, and whether it opens first. */
  const afterCrash = (): { conversation: Conversation | undefined; shownFirst: boolean } => {
    const store = new ConversationStore(crash());
    return { conversation: store.load(session.conversationId), shownFirst: store.activeId === session.conversationId };
  };
  return { session, received, until, ended, deltas, crash, afterCrash };
}

/** One line per message: the role, a user's text, an answer's status (and whether it has text). */
function outline(c: Conversation | undefined): string[] {
  return (c?.messages ?? []).map((m) => {
    if (m.role === 'user') return `user: ${m.text}`;
    if (m.role === 'assistant') return `assistant: ${m.status}${m.content ? ' (text)' : ''}`;
    return `tool: ${m.name}`;
  });
}

void test('Regenerate stores the old answer as removed when the new request is sent, so a crash mid-answer does not bring it back', async () => {
  const h = harness();
  void h.session.send('r1', question('#long 30'));
  await h.until(h.ended('r1'), 'the first answer');
  assert.deepEqual(
    outline(h.afterCrash().conversation),
    ['user: #long 30', 'assistant: done (text)'],
    'the first answer was stored',
  );

  // The new answer sends a few chunks, then nothing until it is stopped: the window "dies" here.
  gw.fault({ match: { path: '/chat/completions' }, stallAfterChunks: 4 });
  void h.session.regenerate('r2');
  await h.until(() => h.deltas('r2') >= 1, 'the new answer to stream');
  const crashed = h.afterCrash();
  assert.deepEqual(
    outline(crashed.conversation),
    ['user: #long 30'],
    'the regenerated answer came back after a crash mid-answer',
  );
  assert.ok(crashed.shownFirst, 'the conversation is the one shown after the restart');

  h.session.cancel('r2');
  await h.until(h.ended('r2'), 'the stop');
  assert.deepEqual(
    outline(h.afterCrash().conversation),
    ['user: #long 30', 'assistant: stopped (text)'],
    'one answer to the question, the stopped new one',
  );
  h.session.dispose();
});

void test('Retry after a failed answer stores the failure as removed when the new request is sent, so a crash mid-answer does not show it again', async () => {
  const h = harness();
  gw.fault({ match: { path: '/chat/completions' }, status: 500 });
  void h.session.send('r1', question('what is two plus two'));
  await h.until(h.ended('r1'), 'the failed answer');
  assert.deepEqual(
    outline(h.afterCrash().conversation),
    ['user: what is two plus two', 'assistant: error'],
    'the failure was stored',
  );

  gw.fault({ match: { path: '/chat/completions' }, stallAfterChunks: 3 });
  void h.session.regenerate('r2');
  await h.until(() => h.deltas('r2') >= 1, 'the retried answer to stream');
  assert.deepEqual(
    outline(h.afterCrash().conversation),
    ['user: what is two plus two'],
    'the failed answer came back after a crash mid-retry',
  );

  h.session.cancel('r2');
  await h.until(h.ended('r2'), 'the stop');
  h.session.dispose();
});

void test('Continue stores its automatic question when the request is sent, after the cut-off answer it continues, so a crash mid-answer keeps both', async () => {
  const h = harness();
  void h.session.send('r1', question('#long 30 #finish length'));
  await h.until(h.ended('r1'), 'the first answer');
  const cut = h.afterCrash().conversation;
  assert.deepEqual(
    outline(cut),
    ['user: #long 30 #finish length', 'assistant: done (text)'],
    'the cut-off answer was stored',
  );
  assert.equal(
    cut?.messages[1]?.role === 'assistant' && cut.messages[1].finishReason,
    'length',
    'so the chat offers Continue',
  );
  await new Promise((r) => setTimeout(r, 5));

  gw.fault({ match: { path: '/chat/completions' }, stallAfterChunks: 3 });
  void h.session.continue('r2');
  await h.until(() => h.deltas('r2') >= 1, 'the continued answer to stream');
  const crashed = h.afterCrash();
  assert.deepEqual(
    outline(crashed.conversation),
    ['user: #long 30 #finish length', 'assistant: done (text)', `user: ${CONTINUE_TEXT}`],
    'the Continue question was lost by a crash mid-answer',
  );
  assert.ok(
    (crashed.conversation?.updatedAt ?? 0) > (cut?.updatedAt ?? Infinity),
    'the history does not list it as changed by the Continue',
  );
  assert.ok(crashed.shownFirst, 'the conversation is the one shown after the restart');

  h.session.cancel('r2');
  await h.until(h.ended('r2'), 'the stop');
  assert.deepEqual(outline(h.afterCrash().conversation), [
    'user: #long 30 #finish length',
    'assistant: done (text)',
    `user: ${CONTINUE_TEXT}`,
    'assistant: stopped (text)',
  ]);
  h.session.dispose();
});

void test('Continue in a window restarted after a crash mid-continue answers the stored Continue question instead of asking it twice', async () => {
  const before = harness();
  void before.session.send('r1', question('#long 30 #finish length'));
  await before.until(before.ended('r1'), 'the first answer');
  gw.fault({ match: { path: '/chat/completions' }, stallAfterChunks: 3 });
  void before.session.continue('r2');
  await before.until(() => before.deltas('r2') >= 1, 'the continued answer to stream');
  const left = before.crash();
  before.session.dispose();

  const restarted = harness(left);
  assert.equal(
    restarted.session.conversationId,
    before.session.conversationId,
    'the restarted window shows the crashed conversation',
  );
  void restarted.session.continue('r3');
  await restarted.until(restarted.ended('r3'), 'the continued answer');
  assert.deepEqual(
    outline(restarted.afterCrash().conversation),
    ['user: #long 30 #finish length', 'assistant: done (text)', `user: ${CONTINUE_TEXT}`, 'assistant: done (text)'],
    'the Continue question was asked twice',
  );
  const asked = gw
    .requests()
    .filter((r) => r.method === 'POST' && r.route === '/v1/chat/completions')
    .at(-1)?.body as { messages?: { role: string; content: unknown }[] } | undefined;
  assert.deepEqual(
    asked?.messages?.filter((m) => m.role === 'user').map((m) => m.content),
    ['#long 30 #finish length', CONTINUE_TEXT],
    'the request carried the question once',
  );
  restarted.session.dispose();
});
