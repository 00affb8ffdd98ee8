import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FileStorage } from '../../../../../src/chat/history/core/fileStorage';
import { ConversationStore, isConversationStoreKey } from '../../../../../src/chat/history/core/store';
import type { Conversation } from '../../../../../src/shared/protocol';
import { withMessage } from '../../../../support/conversations';
import { MemoryStorage } from '../../../../support/memoryStorage';

const root = mkdtempSync(join(tmpdir(), 'gws-filestorage-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const folder = (): string => join(root, `f${++n}`, 'chat-conversations');

const storage = (dir: string, legacy?: MemoryStorage, warn?: (m: string) => void): FileStorage =>
  new FileStorage({
    folder: dir,
    owns: isConversationStoreKey,
    ...(legacy ? { legacy } : {}),
    ...(warn ? { warn } : {}),
  });

/** Conversations saved the way earlier versions did: into workspace state. */
async function legacyState(count: number): Promise<{ legacy: MemoryStorage; saved: Conversation[] }> {
  const legacy = new MemoryStorage();
  await legacy.update('gatewayStudio.chat.rulesAllowedUntrusted', true);
  const store = new ConversationStore(legacy);
  const saved: Conversation[] = [];
  for (let i = 0; i < count; i++) {
    const c = withMessage(`question ${i}`, 1000 + i * 10);
    await store.save(c);
    const stored = store.load(c.id);
    assert.ok(stored);
    saved.push(stored);
  }
  await store.setActive(saved[0]?.id);
  return { legacy, saved };
}

void test('a save is one file, readable at once and by a later start', async () => {
  const dir = folder();
  const files = storage(dir);
  const store = new ConversationStore(files);
  const c = withMessage('How do I parse JSON?', 1000);
  await store.save(c);
  await store.setActive(c.id);
  assert.deepEqual(readdirSync(dir).sort(), [
    `gatewayStudio.chat.conversation.${c.id}.json`,
    'gatewayStudio.chat.index.json',
  ]);
  const again = new ConversationStore(storage(dir));
  assert.equal(again.activeId, c.id);
  assert.deepEqual(again.load(c.id)?.messages, c.messages);
});

void test('rapid saves of one conversation land in order: the file holds the last one', async () => {
  const dir = folder();
  const files = storage(dir);
  const key = 'gatewayStudio.chat.conversation.c1';
  const writes = Array.from({ length: 30 }, (_, i) => files.update(key, { version: 1, n: i }));
  await Promise.all(writes);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, `${key}.json`), 'utf8')), { version: 1, n: 29 });
  assert.deepEqual(readdirSync(dir), [`${key}.json`], 'no temporary file is left behind');
});

void test('what get answers is what update was given when it was called, not a later change of that object', async () => {
  const files = storage(folder());
  const value = { version: 1, conversation: { title: 'first' } };
  const written = files.update('gatewayStudio.chat.conversation.c2', value);
  value.conversation.title = 'changed after the call';
  await written;
  assert.deepEqual(files.get('gatewayStudio.chat.conversation.c2'), { version: 1, conversation: { title: 'first' } });
  assert.deepEqual(storage(files.folder).get('gatewayStudio.chat.conversation.c2'), {
    version: 1,
    conversation: { title: 'first' },
  });
});

void test('migration moves every conversation out of workspace state, loses nothing, and leaves other keys', async () => {
  const { legacy, saved } = await legacyState(5);
  const files = storage(folder(), legacy);
  const before = new ConversationStore(files);
  assert.equal(before.list().length, 5, 'read through to workspace state before moving');
  assert.equal(await files.migrate(), 6, 'five records and the index');
  assert.deepEqual(legacy.keys(), ['gatewayStudio.chat.rulesAllowedUntrusted']);

  const after = new ConversationStore(storage(files.folder));
  assert.equal(after.activeId, saved[0]?.id);
  assert.deepEqual(
    after.list().map((e) => e.id),
    before.list().map((e) => e.id),
  );
  for (const c of saved) assert.deepEqual(after.load(c.id), c);
  assert.equal(await files.migrate(), 0, 'a second start has nothing left to move');
});

void test('a migration that cannot write keeps every record in workspace state, still readable, and says why', async () => {
  const { legacy, saved } = await legacyState(3);
  const blocker = join(root, `blocked${++n}`);
  writeFileSync(blocker, 'a file where the folder should go');
  const warnings: string[] = [];
  const files = storage(join(blocker, 'chat-conversations'), legacy, (m) => warnings.push(m));
  assert.equal(await files.migrate(), 0);
  assert.equal(warnings.length, 4);
  assert.match(warnings[0] ?? '', /stays in workspace state/);
  assert.equal(legacy.keys().length, 5, 'nothing was removed');
  const store = new ConversationStore(files);
  for (const c of saved) assert.deepEqual(store.load(c.id), c);
});

void test('a conversation saved while the migration runs is not overwritten by its old copy', async () => {
  const { legacy, saved } = await legacyState(2);
  const files = storage(folder(), legacy);
  const store = new ConversationStore(files);
  const first = saved[0];
  assert.ok(first);
  const newer = { ...first, title: 'renamed during the move', updatedAt: 5000 };
  const saving = store.save(newer);
  await files.migrate();
  await saving;
  await files.flushed();
  assert.equal(new ConversationStore(storage(files.folder)).load(first.id)?.title, 'renamed during the move');
});

void test('a file that does not parse is reported by the store and left as it is', async () => {
  const dir = folder();
  const files = storage(dir);
  const store = new ConversationStore(files);
  const c = withMessage('kept', 1000);
  await store.save(c);
  const file = join(dir, `gatewayStudio.chat.conversation.${c.id}.json`);
  writeFileSync(file, '{"version": 1, "conversation": {');
  const warnings: string[] = [];
  const reopened = new ConversationStore(storage(dir, undefined, (m) => warnings.push(m)));
  assert.equal(reopened.load(c.id), undefined);
  assert.equal(reopened.problems[0]?.problem, 'not a conversation record');
  assert.match(warnings[0] ?? '', /could not be read/);
  assert.equal(readFileSync(file, 'utf8'), '{"version": 1, "conversation": {');
});

void test('delete removes the file and the old copy in workspace state', async () => {
  const { legacy, saved } = await legacyState(2);
  const files = storage(folder(), legacy);
  const store = new ConversationStore(files);
  const gone = saved[1];
  assert.ok(gone);
  await store.delete(gone.id);
  await files.flushed();
  assert.equal(legacy.get(`gatewayStudio.chat.conversation.${gone.id}`), undefined);
  assert.equal(existsSync(join(files.folder, `gatewayStudio.chat.conversation.${gone.id}.json`)), false);
  assert.deepEqual(
    new ConversationStore(storage(files.folder, legacy)).list().map((e) => e.id),
    [saved[0]?.id],
  );
});

void test('a key that is not a conversation store key, or not a plain file name, is refused', async () => {
  const files = storage(folder());
  await assert.rejects(files.update('gatewayStudio.tools.state', {}), /not a key this storage keeps/);
  await assert.rejects(files.update('gatewayStudio.chat.conversation.../../x', {}), /not a key this storage keeps/);
  assert.deepEqual(files.keys(), []);
});
