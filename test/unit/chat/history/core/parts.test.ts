import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ConversationImageFiles } from '../../../../../src/chat/history/core/conversationImages';
import { FileStorage } from '../../../../../src/chat/history/core/fileStorage';
import { PART_MESSAGES } from '../../../../../src/chat/history/core/parts';
import { ConversationStore, isConversationStoreKey, newConversation } from '../../../../../src/chat/history/core/store';
import type { KeyValueStorage } from '../../../../../src/chat/conversation/core/contracts';
import type { ChatMessage, Conversation } from '../../../../../src/shared/protocol';
import { MemoryStorage } from '../../../../support/memoryStorage';

/**
 * A long conversation stored as a head and parts (src/chat/history/core/parts.ts), through the
 * store and the file storage the extension uses: what a save writes, what a restart reads, and
 * what a save cut off or a lost file leaves.
 */

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'gws-parts-'));
  dirs.push(d);
  return d;
}

/** File storage over `dir`, recording each key written (or removed) and able to fail one. */
class Recorded implements KeyValueStorage {
  readonly writes: string[] = [];
  failOn: ((key: string) => boolean) | undefined;
  /** Part writes asked for while set take this long (a slow disk). */
  slowPartsMs = 0;
  readonly files: FileStorage;
  constructor(readonly dir: string) {
    this.files = new FileStorage({ folder: dir, owns: isConversationStoreKey });
  }
  get<T>(key: string): T | undefined {
    return this.files.get<T>(key);
  }
  keys(): readonly string[] {
    return this.files.keys();
  }
  update(key: string, value: unknown): Promise<void> {
    if (this.failOn?.(key)) return Promise.reject(new Error(`disk full writing ${key}`));
    this.writes.push(value === undefined ? `-${key}` : key);
    if (this.slowPartsMs && key.startsWith('gatewayStudio.chat.part.'))
      return new Promise((r) => setTimeout(r, this.slowPartsMs)).then(() => this.files.update(key, value));
    return this.files.update(key, value);
  }
  /** Part keys written (not removed) since the last call. */
  partsWritten(): string[] {
    const out = this.writes.filter((k) => k.startsWith('gatewayStudio.chat.part.'));
    this.writes.length = 0;
    return out;
  }
}

function longConversation(turns: number): Conversation {
  const c = { ...newConversation(1000), title: 'a long one' };
  for (let t = 0; t < turns; t++) addTurn(c, t);
  return c;
}

function addTurn(c: Conversation, t: number): void {
  c.messages.push({ id: `u${t}`, role: 'user', text: `question ${t}`, images: [], contexts: [], createdAt: 1000 + t });
  c.messages.push({
    id: `a${t}`,
    role: 'assistant',
    content: `answer ${t} `.repeat(20),
    status: 'done',
    requestedModel: 'gw-chat',
    createdAt: 1000 + t,
  });
  c.updatedAt = 1000 + t;
}

/** The store as the next start of the window opens it: a new file storage over the same folder. */
const reopened = (dir: string) => new ConversationStore(new FileStorage({ folder: dir, owns: isConversationStoreKey }));
const partFiles = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('gatewayStudio.chat.part.'));
const head = (dir: string, c: Conversation) =>
  JSON.parse(readFileSync(join(dir, `gatewayStudio.chat.conversation.${c.id}.json`), 'utf8')) as {
    version: number;
    parts?: { key: string; count: number }[];
  };

void test('a long conversation is a head and parts of 32 messages, read back whole after a restart', async () => {
  const s = new Recorded(folder());
  const c = longConversation(50);
  await new ConversationStore(s).save(c);
  await s.files.flushed();
  const h = head(s.dir, c);
  assert.equal(h.version, 3);
  assert.deepEqual(
    h.parts?.map((p) => p.count),
    [32, 32, 32, 4],
  );
  assert.equal(partFiles(s.dir).length, 4);

  const again = reopened(s.dir);
  assert.deepEqual(again.load(c.id), c);
  assert.equal(again.list()[0]?.messageCount, 100);
  assert.deepEqual(again.problems, []);
});

void test("a turn's save writes only the parts at and after the first message it may have changed", async () => {
  const s = new Recorded(folder());
  const store = new ConversationStore(s);
  const c = longConversation(50);
  await store.save(c);
  s.partsWritten();
  addTurn(c, 50);
  await store.save(c, { dirtyFrom: 99 });
  assert.equal(s.partsWritten().length, 1, 'the last part only');
  // A change in a part wholly before the promise is not looked for: the caller said there is none.
  const early = c.messages[41] as Extract<ChatMessage, { role: 'assistant' }>;
  early.content = 'changed against the promise';
  await store.save(c, { dirtyFrom: 101 });
  assert.deepEqual(s.partsWritten(), [], 'the last part is as written; the earlier one is not looked at');
  await s.files.flushed();
  const stored = new ConversationStore(s).load(c.id)?.messages[41];
  assert.equal(stored?.role === 'assistant' && stored.content, 'answer 20 '.repeat(20), 'as promised: not read');

  // ...but an older message replaced by a new object is seen even under a promise.
  c.messages[3] = { ...(c.messages[3] as Extract<ChatMessage, { role: 'assistant' }>), content: 'trimmed' };
  await store.save(c, { dirtyFrom: 101 });
  const written = s.partsWritten();
  assert.equal(written.length, 1, `the replaced message's part: ${written.join(', ')}`);
  await s.files.flushed();
  assert.deepEqual(head(s.dir, c).parts?.[0]?.key, written[0]);
  // The same content in a new object is compared, not written again.
  c.messages[5] = { ...(c.messages[5] as ChatMessage) };
  await store.save(c, { dirtyFrom: 101 });
  assert.deepEqual(s.partsWritten(), []);
});

void test('without a promise, only the parts whose messages changed are written', async () => {
  const s = new Recorded(folder());
  const store = new ConversationStore(s);
  const c = longConversation(50);
  await store.save(c);
  s.partsWritten();
  await store.save(c);
  assert.deepEqual(s.partsWritten(), [], 'nothing changed, no part written');
  (c.messages[40] as Extract<ChatMessage, { role: 'user' }>).text = 'edited in place';
  await store.save(c);
  assert.equal(s.partsWritten().length, 1);
  await s.files.flushed();
  assert.equal(partFiles(s.dir).length, 4, 'the part it replaced is gone');
  const read = reopened(s.dir).load(c.id);
  assert.equal((read?.messages[40] as Extract<ChatMessage, { role: 'user' }>).text, 'edited in place');
});

void test('a restart remembers the parts it read: the next turn writes its tail only', async () => {
  const dir = folder();
  const c = longConversation(50);
  await reopened(dir).save(c);
  const s = new Recorded(dir);
  await s.files.flushed();
  const store = new ConversationStore(s);
  const loaded = store.load(c.id)!;
  addTurn(loaded, 50);
  await store.save(loaded, { dirtyFrom: 100 });
  assert.equal(s.partsWritten().length, 1);
});

void test('a conversation cut back to 32 messages or fewer is one record again, and its parts are removed', async () => {
  const s = new Recorded(folder());
  const store = new ConversationStore(s);
  const c = longConversation(50);
  await store.save(c);
  c.messages.splice(PART_MESSAGES - 2);
  await store.save(c);
  await s.files.flushed();
  assert.equal(head(s.dir, c).version, 1);
  assert.deepEqual(partFiles(s.dir), []);
  assert.equal(new ConversationStore(s).load(c.id)?.messages.length, 30);
});

void test('a save cut off before its head leaves the previous conversation, whole; the next save works', async () => {
  const s = new Recorded(folder());
  const store = new ConversationStore(s);
  const c = longConversation(50);
  await store.save(c);
  const before = structuredClone(c);
  addTurn(c, 50);
  (c.messages[0] as Extract<ChatMessage, { role: 'user' }>).text = 'changed too';
  s.failOn = (k) => k.startsWith('gatewayStudio.chat.conversation.');
  await assert.rejects(store.save(c, { dirtyFrom: 100 }), /disk full/);
  await s.files.flushed();
  assert.deepEqual(new ConversationStore(s).load(c.id), before, 'the old head and every part it lists');
  assert.equal(partFiles(s.dir).length, 4, 'the parts of the failed save are removed');

  s.failOn = undefined;
  await store.save(c, { dirtyFrom: 100 });
  await s.files.flushed();
  // The failed save's changes are not lost to the promise the next save made.
  assert.deepEqual(new ConversationStore(s).load(c.id), c);
});

void test('a lost part is reported by name and the conversation is left as it is; others still open', async () => {
  const s = new Recorded(folder());
  const store = new ConversationStore(s);
  const c = longConversation(50);
  const other = longConversation(3);
  await store.save(c);
  await store.save(other);
  await s.files.flushed();
  const lost = head(s.dir, c).parts![1]!.key;
  rmSync(join(s.dir, `${lost}.json`));

  const again = reopened(s.dir);
  assert.equal(again.load(c.id), undefined);
  assert.match(
    again.problems[0]?.problem ?? '',
    new RegExp(`part 2 of 4 \\(${lost.replace(/\./g, '\\.')}\\) is missing`),
  );
  assert.deepEqual(again.load(other.id), other);
  assert.equal(partFiles(s.dir).length, 3, 'the parts still there are kept');
});

void test('delete removes the head and every part; parts a cut-off delete left behind go at the next start', async () => {
  const s = new Recorded(folder());
  const store = new ConversationStore(s);
  const c = longConversation(50);
  const d = longConversation(40);
  await store.save(c);
  await store.save(d);
  await store.delete(c.id);
  await s.files.flushed();
  assert.equal(partFiles(s.dir).length, 3, "only the other conversation's parts");
  rmSync(join(s.dir, `gatewayStudio.chat.conversation.${d.id}.json`));

  const next = new Recorded(s.dir);
  new ConversationStore(next);
  await new Promise((r) => setTimeout(r, 50));
  await next.files.flushed();
  assert.deepEqual(partFiles(s.dir), []);
});

void test("a long conversation's images are files, as in a short one, and come back as data URLs", async () => {
  const dir = folder();
  const s = new Recorded(dir);
  const images = new ConversationImageFiles({ folder: join(dir, 'images'), limitBytes: () => 10_000_000 });
  const store = new ConversationStore(s, images);
  const c = longConversation(50);
  const png = `data:image/png;base64,${Buffer.from('not really a png, but bytes').toString('base64')}`;
  const q = c.messages[90] as Extract<ChatMessage, { role: 'user' }>;
  q.images = [{ name: 'shot.png', mime: 'image/png', bytes: 27, dataUrl: png }];
  await store.save(c);
  await s.files.flushed();
  const part = head(dir, c).parts![2]!.key;
  const stored = readFileSync(join(dir, `${part}.json`), 'utf8');
  assert.ok(!stored.includes('base64'), 'the part names the file, not the bytes');
  assert.equal(readdirSync(join(dir, 'images')).length, 1);
  const read = new ConversationStore(s, images).load(c.id);
  assert.deepEqual((read?.messages[90] as Extract<ChatMessage, { role: 'user' }>).images[0]?.dataUrl, png);
});

void test('a part named outside the part keys, or a head without parts, is reported and not read', async () => {
  for (const [parts, problem] of [
    [undefined, /without its list of parts/],
    [[{ key: 'gatewayStudio.chat.index', count: 1 }], /part 1 of 1 is not named/],
  ] as const) {
    const storage = new MemoryStorage();
    const c = longConversation(1);
    await storage.update(`gatewayStudio.chat.conversation.${c.id}`, {
      version: 3,
      conversation: { ...c, messages: [] },
      ...(parts ? { parts } : {}),
    });
    const store = new ConversationStore(storage);
    assert.equal(store.load(c.id), undefined);
    assert.match(store.problems.find((p) => p.id === c.id)?.problem ?? '', problem);
    assert.ok(storage.data.has(`gatewayStudio.chat.conversation.${c.id}`), 'left as it is');
  }
});

void test('renaming a long conversation writes its head, not its parts', async () => {
  const s = new Recorded(folder());
  const c = longConversation(50);
  await new ConversationStore(s).save(c);
  await s.files.flushed();
  const store = new ConversationStore(s);
  s.partsWritten();
  assert.equal((await store.rename(c.id, 'a new name'))?.title, 'a new name');
  assert.deepEqual(s.partsWritten(), []);
  await s.files.flushed();
  const read = reopened(s.dir).load(c.id);
  assert.deepEqual(read, { ...c, title: 'a new name' });
});

void test('two saves of one conversation asked for at once are stored in order, and never share a part name', async () => {
  const s = new Recorded(folder());
  const store = new ConversationStore(s);
  const c = longConversation(50);
  await store.save(c);
  (c.messages[0] as Extract<ChatMessage, { role: 'user' }>).text = 'first change';
  // The first save's parts land late: its head must still not land after the second's.
  s.slowPartsMs = 60;
  const a = store.save(c);
  s.slowPartsMs = 0;
  (c.messages[1] as Extract<ChatMessage, { role: 'assistant' }>).content = 'second change';
  const b = store.save(c);
  await Promise.all([a, b]);
  await s.files.flushed();
  const written = s.partsWritten();
  assert.equal(new Set(written).size, written.length, `a part name written twice: ${written.join(', ')}`);
  assert.deepEqual(reopened(s.dir).load(c.id), c);
});
