import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConversationStore, newConversation } from '../../../../../src/chat/history/core/store';
import { ConversationSaver } from '../../../../../src/chat/session/core/conversationSaver';
import type { Conversation, HostMessage } from '../../../../../src/shared/protocol';
import { useGateway } from '../../../../support/helpers';
import { MemoryStorage } from '../../../../support/memoryStorage';
import { openSession, question } from '../../../../support/sessionHarness';

/**
 * The ordered saves of conversations (src/chat/session/core/conversationSaver.ts), and what the
 * user hears when the workspace storage refuses them.
 */

const gw = useGateway();

/** Workspace storage that refuses every write while `failing` (a full disk, a storage error). */
class FailingStorage extends MemoryStorage {
  failing = true;
  override update(key: string, value: unknown): Promise<void> {
    return this.failing ? Promise.reject(new Error('disk full')) : super.update(key, value);
  }
}

function conversation(text: string): Conversation {
  const c = newConversation(1);
  c.messages.push({ id: 'u1', role: 'user', text, images: [], contexts: [], createdAt: 1 });
  return c;
}

const errors = (sent: HostMessage[]) =>
  sent.flatMap((m) => (m.type === 'chat/notice' && m.level === 'error' ? [m.text] : []));

void test('a failed save is shown to the user once per run of failures, not once per save; a save that works again re-arms it', async () => {
  const storage = new FailingStorage();
  const sent: HostMessage[] = [];
  const logs: string[] = [];
  const saver = new ConversationSaver(
    new ConversationStore(storage),
    { warn: (m) => logs.push(m), error: (m) => logs.push(m) },
    (m) => sent.push(m),
  );
  const c = conversation('keep me');
  for (let i = 0; i < 5; i++) await saver.save(c);
  assert.equal(errors(sent).length, 1, `notices: ${JSON.stringify(errors(sent))}`);
  assert.match(errors(sent)[0] ?? '', /disk full/);
  assert.equal(logs.length, 5, 'each failure is still logged');

  storage.failing = false;
  await saver.save(c);
  assert.equal(new ConversationStore(storage).load(c.id)?.messages.length, 1, 'the working save stored it');
  storage.failing = true;
  await saver.save(c);
  assert.equal(errors(sent).length, 2, 'a new failure after a good save is shown again');
});

void test('an answer streamed while the storage refuses every save tells the chat once that the history is not being saved', async () => {
  const storage = new FailingStorage();
  gw.fault({ match: { path: '/chat/completions' }, chunkDelayMs: 20 });
  const h = openSession(gw, storage);
  await h.session.send('r1', question('#long 40'));
  const shown = errors(h.received);
  assert.equal(shown.length, 1, `notices: ${JSON.stringify(shown)}`);
  assert.ok(
    h.logs.filter((l) => l.includes('not saved')).length > 1,
    'the answer was saved only once, so the test shows nothing',
  );
  h.session.dispose();
});

/** Storage whose writes take a while (a large record on a slow disk), counting the conversation writes. */
class SlowStorage extends MemoryStorage {
  writes = 0;
  override async update(key: string, value: unknown): Promise<void> {
    if (key.startsWith('gatewayStudio.chat.conversation.')) this.writes++;
    await new Promise((r) => setTimeout(r, 20));
    return super.update(key, value);
  }
}

void test('saves asked for while one is written are merged: each waiting conversation is written once, in its latest state, and the last asked for is shown after a restart', async () => {
  const storage = new SlowStorage();
  const saver = new ConversationSaver(
    new ConversationStore(storage),
    { warn: () => undefined, error: () => undefined },
    () => undefined,
  );
  const a = conversation('a');
  const b = conversation('b');
  const first = saver.save(a);
  await new Promise((r) => setTimeout(r, 5)); // a's first write is under way
  const asked: Promise<void>[] = [];
  for (let i = 2; i <= 10; i++) {
    a.messages.push({ id: `u${i}`, role: 'user', text: `a${i}`, images: [], contexts: [], createdAt: i });
    asked.push(saver.save(a));
  }
  asked.push(saver.save(b), saver.save(a));
  await Promise.all([first, ...asked]);
  assert.equal(storage.writes, 3, 'the first save of a, then a and b once each');
  const store = new ConversationStore(storage);
  assert.equal(store.load(a.id)?.messages.length, 10, 'the merged save wrote the latest state');
  assert.equal(store.load(b.id)?.messages.length, 1);
  assert.equal(store.activeId, a.id, 'a was asked for last');
});

void test('saves merged while one is written keep the lowest promise: a change an earlier save named is not skipped', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const promises: (number | undefined)[] = [];
  const save = store.save.bind(store);
  let release = () => {};
  const writing = new Promise<void>((r) => (release = r));
  store.save = async (c, o) => {
    promises.push(o?.dirtyFrom);
    if (promises.length === 1) await writing;
    return save(c, o);
  };
  const saver = new ConversationSaver(store, { warn: () => undefined, error: () => undefined }, () => undefined);
  const c = conversation('first');
  const first = saver.save(c, 50);
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(promises, [50], 'the first is being written');
  // Asked for while the first is written: one save, from the lowest of the three.
  void saver.save(c, 40);
  void saver.save(c, 7);
  const merged = saver.save(c, 60);
  release();
  await Promise.all([first, merged]);
  assert.deepEqual(promises, [50, 7]);
  // Without one, a save promises nothing.
  await saver.save(c);
  assert.deepEqual(promises, [50, 7, 0]);
});
