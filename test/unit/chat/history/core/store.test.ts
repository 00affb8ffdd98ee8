import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConversationStore, newConversation, STORE_VERSION } from '../../../../../src/chat/history/core/store';
import { withMessage } from '../../../../support/conversations';
import { MemoryStorage } from '../../../../support/memoryStorage';

void test('a saved conversation survives a restart (a new store over the same storage)', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const c = withMessage('How do I parse JSON?');
  await store.save(c);
  await store.setActive(c.id);

  const again = new ConversationStore(storage);
  assert.equal(again.activeId, c.id);
  const loaded = again.load(c.id);
  assert.deepEqual(loaded?.messages, c.messages);
  assert.equal(again.list()[0]?.title, 'How do I parse JSON?');
});

void test('an empty conversation is not stored, so New Chat does not litter the history', async () => {
  const store = new ConversationStore(new MemoryStorage());
  await store.save(newConversation());
  assert.equal(store.list().length, 0);
});

void test('history is newest first, and rename and delete change only their conversation', async () => {
  const store = new ConversationStore(new MemoryStorage());
  const a = withMessage('first', 1000);
  const b = withMessage('second', 2000);
  await store.save(a);
  await store.save(b);
  assert.deepEqual(
    store.list().map((e) => e.title),
    ['second', 'first'],
  );
  await store.rename(a.id, '  Parsing   notes ');
  assert.equal(store.load(a.id)?.title, 'Parsing notes');
  await store.delete(b.id);
  assert.deepEqual(
    store.list().map((e) => e.id),
    [a.id],
  );
  assert.equal(store.load(b.id), undefined);
});

void test('a long first line is cut to a 60-character title', async () => {
  const store = new ConversationStore(new MemoryStorage());
  await store.save(withMessage('x'.repeat(200) + '\nsecond line'));
  const title = store.list()[0]?.title ?? '';
  assert.equal(title.length, 60);
  assert.ok(title.endsWith('…'));
});

void test('a record from a newer version is reported and left untouched, not lost', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const c = withMessage('keep me');
  await store.save(c);
  const key = [...storage.data.keys()].find((k) => k.includes(c.id)) ?? '';
  const future = { version: STORE_VERSION + 1, conversation: { something: 'new' } };
  await storage.update(key, future);

  const again = new ConversationStore(storage);
  assert.equal(again.load(c.id), undefined);
  assert.match(again.problems[0]?.problem ?? '', /newer version/);
  assert.deepEqual(storage.get(key), future);
});

void test('a lost index is rebuilt from the stored conversations', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  await store.save(withMessage('one', 1000));
  await store.save(withMessage('two', 2000));
  await storage.update('gatewayStudio.chat.index', 'garbage');
  const again = new ConversationStore(storage);
  assert.deepEqual(
    again.list().map((e) => e.title),
    ['two', 'one'],
  );
  assert.equal(again.problems.length, 1);
});

void test('a corrupt conversation names the bad field', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const c = withMessage('x');
  await store.save(c);
  const key = [...storage.data.keys()].find((k) => k.includes(c.id)) ?? '';
  await storage.update(key, { version: 1, conversation: { ...c, messages: [{ role: 'robot' }] } });
  const again = new ConversationStore(storage);
  assert.equal(again.load(c.id), undefined);
  assert.match(again.problems.at(-1)?.problem ?? '', /messages\.0/);
});

void test('a conversation deleted while its answer was still being saved stays deleted', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const c = withMessage('delete me mid-answer');
  await store.save(c);
  await store.delete(c.id);
  // The stopped turn of that conversation ends after the delete and saves its final state.
  c.messages.push({
    id: 'a-late',
    role: 'assistant',
    content: 'partial',
    status: 'stopped',
    requestedModel: 'gw-chat',
    createdAt: 2000,
  });
  await store.save(c);
  assert.deepEqual(
    store.list().map((e) => e.id),
    [],
  );
  assert.equal(store.load(c.id), undefined);
  await store.setActive(c.id);
  const again = new ConversationStore(storage);
  assert.equal(again.list().length, 0, 'nothing comes back after a restart either');
  assert.equal(again.activeId, undefined);
});

void test('an answer saved while it was still streaming (the window closed mid-answer) loads as stopped, keeping its text', async () => {
  const storage = new MemoryStorage();
  const c = withMessage('question');
  c.messages.push({ id: 'u2', role: 'user', text: 'and then?', images: [], contexts: [], createdAt: 3000 });
  c.messages.push({
    id: 'a2',
    role: 'assistant',
    content: 'Half an ans',
    status: 'streaming',
    requestedModel: 'gw-chat',
    createdAt: 3001,
  });
  await new ConversationStore(storage).save(c);
  const loaded = new ConversationStore(storage).load(c.id);
  const last = loaded?.messages.at(-1);
  assert.equal(last?.role === 'assistant' && last.status, 'stopped');
  assert.equal(last?.role === 'assistant' && last.content, 'Half an ans');
  assert.equal(
    loaded?.messages[1]?.role === 'assistant' && loaded.messages[1].status,
    'done',
    'finished answers are unchanged',
  );
});

void test('a record the index does not list (a crash between the two writes) is listed at the next start', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const listed = withMessage('listed', 1000);
  await store.save(listed);
  const orphan = withMessage('written just before the crash', 2000);
  await storage.update(`gatewayStudio.chat.conversation.${orphan.id}`, { version: 1, conversation: orphan });

  const again = new ConversationStore(storage);
  assert.deepEqual(
    again.list().map((e) => [e.id, e.title]),
    [
      [orphan.id, 'written just before the crash'],
      [listed.id, 'listed'],
    ],
  );
  assert.deepEqual(again.load(orphan.id)?.messages, orphan.messages);
});
