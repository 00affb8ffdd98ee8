import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PartialSaver } from '../../src/chat/core/partialSave';
import type { AssistantMessage, Conversation } from '../../src/shared/protocol';
import { useChatHarness, type Storage } from './chatHarness';

/**
 * An answer is stored while it streams (at most every ~2 s), so a window that dies mid-answer
 * keeps the text that had arrived. The controller runs in plain node with a minimal stand-in for
 * `vscode` (chatHarness.ts), against the local gateway over real HTTP; a stalled
 * stream holds the answer open while a copy of the storage is read as the next start would.
 */

const chat = useChatHarness();
const gw = chat.gw;

const CONV_PREFIX = 'gatewayStudio.chat.conversation.';

/** A storage that records when each conversation record was written, and with what. */
function recordingStorage() {
  const storage = new chat.store.MemoryStorage();
  const writes: { at: number; conversation: Conversation }[] = [];
  const update = storage.update.bind(storage);
  storage.update = (key: string, value: unknown) => {
    if (key.startsWith(CONV_PREFIX) && value !== undefined) {
      writes.push({ at: Date.now(), conversation: structuredClone((value as { conversation: Conversation }).conversation) });
    }
    return update(key, value);
  };
  return { storage, writes };
}

/** A controller over `storage`, as a window that starts with it; `afterCrash()` reads a copy. */
function harness(storage: Storage = new chat.store.MemoryStorage()) {
  const { controller, received, post, until, logs } = chat.open(storage, { timeoutMs: 15_000 });
  const ended = (requestId: string) => () => received.some((m) => (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === requestId);
  /** The answer text the webview was sent for this request so far. */
  const shown = (requestId: string) =>
    received.filter((m) => m.type === 'chat/delta' && m.requestId === requestId).map((m) => (m.type === 'chat/delta' ? m.content ?? '' : '')).join('');
  const crash = () => chat.copy(storage);
  const afterCrash = (): Conversation | undefined => new chat.store.ConversationStore(crash()).load(controller.conversationId);
  return { controller, received, post, until, ended, shown, crash, afterCrash, logs };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const answers = (c: Conversation | undefined) => (c?.messages ?? []).filter((m): m is AssistantMessage => m.role === 'assistant');
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

void test('a window that dies mid-answer, past the 2 s save interval, comes back with the text that had arrived, marked stopped; nothing unchanged is saved again', async () => {
  const { storage, writes } = recordingStorage();
  const h = harness(storage);
  h.post({ type: 'webview/ready' });
  gw.fault({ match: { path: '/chat/completions' }, stallAfterChunks: 30 });
  h.post({ type: 'chat/send', requestId: 'r1', text: '#long 400', images: [], contexts: [] });
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

  h.post({ type: 'chat/cancel', requestId: 'r1' });
  await h.until(h.ended('r1'), 'the stop');
  h.controller.dispose();
});

void test('a conversation reloaded with a partial answer can be regenerated and continued', async () => {
  const first = harness();
  first.post({ type: 'webview/ready' });
  gw.fault({ match: { path: '/chat/completions' }, stallAfterChunks: 12 });
  first.post({ type: 'chat/send', requestId: 'r1', text: '#long 300', images: [], contexts: [] });
  await first.until(() => first.shown('r1').length > 0, 'the answer to stream');
  await sleep(2400);
  const arrived = first.shown('r1');
  // Two copies of what the dead window left: one continued, one regenerated.
  const left = first.crash();
  const leftAgain = first.crash();
  first.controller.dispose();

  // The next start shows the partial answer as stopped and offers the usual actions on it.
  const again = harness(left);
  again.post({ type: 'webview/ready' });
  assert.equal(again.controller.conversationId, first.controller.conversationId, 'the crashed conversation opens first');
  const snap = again.received.find((m) => m.type === 'chat/snapshot');
  const shownAnswer = snap?.type === 'chat/snapshot' ? answers(snap.conversation)[0] : undefined;
  assert.equal(shownAnswer?.status, 'stopped');
  assert.equal(shownAnswer?.content, arrived);

  // Continued: a new question is sent with the partial answer as history.
  again.post({ type: 'chat/send', requestId: 'r2', text: 'and then?', images: [], contexts: [] });
  await again.until(again.ended('r2'), 'the answer to the follow-up');
  const asked = gw.requests().filter((r) => r.route === '/v1/chat/completions').at(-1)?.body as { messages: { role: string; content: unknown }[] };
  assert.deepEqual(
    asked.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]),
    [['user', '#long 300'], ['assistant', arrived], ['user', 'and then?']],
    'the follow-up carried the partial answer',
  );
  assert.deepEqual(answers(again.afterCrash()).map((a) => [a.status, a.content]), [['stopped', arrived], ['done', 'Echo: and then?']]);
  again.controller.dispose();

  // Regenerated: a window restarted from the crash answers the question again in full.
  const third = harness(leftAgain);
  third.post({ type: 'webview/ready' });
  third.post({ type: 'chat/regenerate', requestId: 'r3' });
  await third.until(third.ended('r3'), 'the regenerated answer');
  const regenerated = answers(third.afterCrash());
  assert.equal(regenerated.length, 1, 'the partial answer was replaced, not kept next to the new one');
  assert.equal(regenerated[0]?.status, 'done');
  assert.equal(words(regenerated[0]?.content ?? ''), 300, 'the whole answer');
  third.controller.dispose();
});

void test('an answer that streams for several seconds is saved about every 2 s, then stored once as done with its full text, and not saved after it ended', async () => {
  const { storage, writes } = recordingStorage();
  const h = harness(storage);
  h.post({ type: 'webview/ready' });
  gw.fault({ match: { path: '/chat/completions' }, chunkDelayMs: 100 });
  h.post({ type: 'chat/send', requestId: 'r1', text: '#long 50', images: [], contexts: [] });
  await h.until(h.ended('r1'), 'the answer');
  const endedAt = Date.now();

  const streaming = writes.filter((w) => answers(w.conversation).some((a) => a.status === 'streaming'));
  assert.ok(streaming.length >= 2, `partial saves while streaming: ${streaming.length}`);
  const texts = streaming.map((w) => answers(w.conversation)[0]?.content.length ?? 0);
  for (let i = 1; i < texts.length; i++) assert.ok((texts[i] ?? 0) > (texts[i - 1] ?? 0), 'each partial save holds more text than the one before');
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
  assert.deepEqual(answers(h.afterCrash()).map((a) => [a.status, a.content]), [['done', h.shown('r1')]]);

  const count = writes.length;
  await sleep(2500);
  assert.equal(writes.length, count, 'saved again after the turn ended');
  assert.ok((writes.at(-1)?.at ?? 0) <= endedAt);
  h.controller.dispose();
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
