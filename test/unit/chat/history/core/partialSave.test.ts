import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PartialSaver } from '../../../../../src/chat/history/core/partialSave';
import { ConversationStore } from '../../../../../src/chat/history/core/store';
import type { AssistantMessage, Conversation } from '../../../../../src/shared/protocol';
import { useGateway } from '../../../../support/helpers';
import { MemoryStorage } from '../../../../support/memoryStorage';
import { copyStorage, openSession, question } from '../../../../support/sessionHarness';

/**
 * An answer is stored while it streams (at most every ~2 s), so a window that dies mid-answer
 * keeps the text that had arrived. The session runs in plain node against the local gateway
 * over real HTTP; a stalled stream holds the answer open while a copy of the storage is read as
 * the next start would.
 */

const gw = useGateway();

const CONV_PREFIX = 'gatewayStudio.chat.conversation.';

/** A storage that records when each conversation record was written, and with what. */
function recordingStorage() {
  const storage = new MemoryStorage();
  const writes: { at: number; conversation: Conversation }[] = [];
  const update = storage.update.bind(storage);
  storage.update = (key: string, value: unknown) => {
    if (key.startsWith(CONV_PREFIX) && value !== undefined) {
      writes.push({
        at: Date.now(),
        conversation: structuredClone((value as { conversation: Conversation }).conversation),
      });
    }
    return update(key, value);
  };
  return { storage, writes };
}

/** A session over `storage`, as a window that starts with it; `afterCrash()` reads a copy. */
function harness(storage = new MemoryStorage()) {
  const { session, received, until, logs } = openSession(gw, storage, { timeoutMs: 15_000 });
  const ended = (requestId: string) => () =>
    received.some((m) => (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === requestId);
  /** The answer text the webview was sent for this request so far. */
  const shown = (requestId: string) =>
    received
      .filter((m) => m.type === 'chat/delta' && m.requestId === requestId)
      .map((m) => (m.type === 'chat/delta' ? (m.content ?? '') : ''))
      .join('');
  const crash = () => copyStorage(storage);
  const afterCrash = (): Conversation | undefined => new ConversationStore(crash()).load(session.conversationId);
  return { session, received, until, ended, shown, crash, afterCrash, logs };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const answers = (c: Conversation | undefined) =>
  (c?.messages ?? []).filter((m): m is AssistantMessage => m.role === 'assistant');
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

void test('a window that dies mid-answer, past the 2 s save interval, comes back with the text that had arrived, marked stopped; nothing unchanged is saved again', async () => {
  const { storage, writes } = recordingStorage();
  const h = harness(storage);
  gw.fault({ match: { path: '/chat/completions' }, stallAfterChunks: 30 });
  void h.session.send('r1', question('#long 400'));
  await h.until(() => h.shown('r1').length > 0, 'the answer to stream');
  await sleep(300);
  const arrived = h.shown('r1');
  assert.ok(words(arrived) >= 10, `some answer text arrived before the stall (${arrived.length} chars)`);
  assert.deepEqual(answers(h.afterCrash()), [], 'the answer was stored before the save interval had passed');

  await sleep(2000);
  const crashed = h.afterCrash();
  const [partial, ...more] = answers(crashed);
  assert.equal(more.length, 0, 'one answer stored');
  assert.equal(partial?.status, 'stopped', 'an answer saved mid-stream loads as stopped');
  assert.equal(partial?.content, arrived, 'the stored text is all the text that had arrived');
  assert.equal(crashed?.messages[0]?.role === 'user' && crashed.messages[0].text, '#long 400');

  // The stream stays stalled: nothing changes, so nothing is stored again.
  const before = writes.length;
  await sleep(2500);
  assert.equal(writes.length, before, 'a stalled answer with no new text was saved again');
  assert.equal(writes.length, 2, 'the turn start and one save of the partial answer');

  h.session.cancel('r1');
  await h.until(h.ended('r1'), 'the stop');
  h.session.dispose();
});

void test('a conversation reloaded with a partial answer can be regenerated and continued', async () => {
  const first = harness();
  gw.fault({ match: { path: '/chat/completions' }, stallAfterChunks: 12 });
  void first.session.send('r1', question('#long 300'));
  await first.until(() => first.shown('r1').length > 0, 'the answer to stream');
  await sleep(2400);
  const arrived = first.shown('r1');
  // Two copies of what the dead window left: one continued, one regenerated.
  const left = first.crash();
  const leftAgain = first.crash();
  first.session.dispose();

  // The next start shows the partial answer as stopped and offers the usual actions on it.
  const again = harness(left);
  assert.equal(again.session.conversationId, first.session.conversationId, 'the crashed conversation opens first');
  // What a view's snapshot carries: the conversation the session shows.
  const shownAnswer = answers(structuredClone(again.session.conversationMessage().conversation))[0];
  assert.equal(shownAnswer?.status, 'stopped');
  assert.equal(shownAnswer?.content, arrived);

  // Continued: a new question is sent with the partial answer as history.
  void again.session.send('r2', question('and then?'));
  await again.until(again.ended('r2'), 'the answer to the follow-up');
  const asked = gw
    .requests()
    .filter((r) => r.route === '/v1/chat/completions')
    .at(-1)?.body as { messages: { role: string; content: unknown }[] };
  assert.deepEqual(
    asked.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]),
    [
      ['user', '#long 300'],
      ['assistant', arrived],
      ['user', 'and then?'],
    ],
    'the follow-up carried the partial answer',
  );
  assert.deepEqual(
    answers(again.afterCrash()).map((a) => [a.status, a.content]),
    [
      ['stopped', arrived],
      ['done', 'Echo: and then?'],
    ],
  );
  again.session.dispose();

  // Regenerated: a window restarted from the crash answers the question again in full.
  const third = harness(leftAgain);
  void third.session.regenerate('r3');
  await third.until(third.ended('r3'), 'the regenerated answer');
  const regenerated = answers(third.afterCrash());
  assert.equal(regenerated.length, 1, 'the partial answer was replaced, not kept next to the new one');
  assert.equal(regenerated[0]?.status, 'done');
  assert.equal(words(regenerated[0]?.content ?? ''), 300, 'the whole answer');
  third.session.dispose();
});

void test('an answer that streams for several seconds is saved about every 2 s, then stored once as done with its full text, and not saved after it ended', async () => {
  const { storage, writes } = recordingStorage();
  const h = harness(storage);
  gw.fault({ match: { path: '/chat/completions' }, chunkDelayMs: 100 });
  void h.session.send('r1', question('#long 50'));
  await h.until(h.ended('r1'), 'the answer');
  const endedAt = Date.now();

  const streaming = writes.filter((w) => answers(w.conversation).some((a) => a.status === 'streaming'));
  assert.ok(streaming.length >= 2, `partial saves while streaming: ${streaming.length}`);
  const texts = streaming.map((w) => answers(w.conversation)[0]?.content.length ?? 0);
  for (let i = 1; i < texts.length; i++)
    assert.ok((texts[i] ?? 0) > (texts[i - 1] ?? 0), 'each partial save holds more text than the one before');
  const starts = [writes[0]?.at ?? 0, ...streaming.map((w) => w.at)];
  for (let i = 1; i < starts.length; i++) {
    const gap = (starts[i] ?? 0) - (starts[i - 1] ?? 0);
    assert.ok(gap >= 1900, `saves ${gap} ms apart while streaming`);
  }

  const last = writes.at(-1)?.conversation;
  const final = answers(last);
  assert.equal(final.length, 1, 'exactly one answer stored');
  assert.equal(final[0]?.status, 'done');
  assert.equal(final[0]?.content, h.shown('r1'), 'the full text');
  assert.equal(words(final[0]?.content ?? ''), 50);
  assert.deepEqual(
    answers(h.afterCrash()).map((a) => [a.status, a.content]),
    [['done', h.shown('r1')]],
  );

  const count = writes.length;
  await sleep(2500);
  assert.equal(writes.length, count, 'saved again after the turn ended');
  assert.ok((writes.at(-1)?.at ?? 0) <= endedAt);
  h.session.dispose();
});

void test('a save slower than the interval is never overlapped or queued behind: changes meanwhile make one trailing save after it', async () => {
  let running = 0;
  let most = 0;
  const started: number[] = [];
  let release: () => void = () => undefined;
  const saver = new PartialSaver(() => {
    running++;
    most = Math.max(most, running);
    started.push(Date.now());
    return new Promise<void>((r) => (release = () => (running--, r())));
  }, 50);
  saver.touch();
  await sleep(120);
  assert.equal(started.length, 1, 'the first change is saved after the interval');
  for (let i = 0; i < 20; i++) {
    saver.touch();
    await sleep(10);
  }
  assert.equal(started.length, 1, 'no second save while the first is under way');
  release();
  await sleep(20);
  assert.equal(started.length, 2, 'the changes made meanwhile are saved once, at once (the interval had passed)');
  release();
  await sleep(120);
  assert.equal(started.length, 2, 'nothing changed since: no save');
  assert.equal(most, 1, 'saves overlapped');
  saver.touch();
  saver.end();
  await sleep(120);
  assert.equal(started.length, 2, 'a change just before the end is left to the final save');
});
