// Conversation images as files in the workspace storage folder, under a limit; old inline records still load.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { ConversationImageFiles } from '../../../../../src/chat/history/core/conversationImages';
import { ConversationStore, newConversation } from '../../../../../src/chat/history/core/store';
import type { Conversation, ImageAttachment } from '../../../../../src/shared/protocol';
import { MemoryStorage } from '../../../../support/memoryStorage';

let folder: string;
beforeEach(async () => {
  folder = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-images-')), 'chat-images');
});
afterEach(async () => {
  await fs.rm(path.dirname(folder), { recursive: true, force: true });
});

function image(name: string, size: number, seed: number): ImageAttachment {
  const bytes = Buffer.alloc(size, seed);
  return { name, mime: 'image/png', dataUrl: `data:image/png;base64,${bytes.toString('base64')}`, bytes: size };
}

function withImages(text: string, at: number, images: ImageAttachment[]): Conversation {
  const c = newConversation(at);
  c.messages.push({ id: `u${at}`, role: 'user', text, images, contexts: [], createdAt: at });
  c.messages.push({
    id: `a${at}`,
    role: 'assistant',
    content: 'Seen.',
    status: 'done',
    requestedModel: 'm',
    createdAt: at + 1,
  });
  c.updatedAt = at + 1;
  return c;
}

function files(limitBytes = 200 * 1024 * 1024): ConversationImageFiles {
  return new ConversationImageFiles({ folder, limitBytes: () => limitBytes });
}

const sha = (img: ImageAttachment) =>
  createHash('sha256')
    .update(Buffer.from(img.dataUrl.split(',')[1]!, 'base64'))
    .digest('hex');

void test('images are stored as files, not base64 in workspace state, and load back the same', async () => {
  const storage = new MemoryStorage();
  const shot = image('shot.png', 3000, 7);
  const c = withImages('What is this?', 1000, [shot, shot]);
  await new ConversationStore(storage, files()).save(c);
  const record = JSON.stringify(storage.get(`gatewayStudio.chat.conversation.${c.id}`));
  assert.ok(!record.includes('base64'), 'no data URL in workspace state');
  assert.ok(record.length < 1000, `record is small: ${record.length}`);
  assert.deepEqual(await fs.readdir(folder), [sha(shot)], 'one file for the same image twice');
  const loaded = new ConversationStore(storage, files()).load(c.id);
  assert.deepEqual(loaded, { ...c, title: 'What is this?' });
});

void test('a conversation stored inline by an earlier version loads, and its next save moves the images to files', async () => {
  const storage = new MemoryStorage();
  const shot = image('old.png', 500, 3);
  const c = withImages('Old one', 2000, [shot]);
  // What version 1 wrote: the data URL inside the record.
  await new ConversationStore(storage).save(c);
  assert.match(JSON.stringify(storage.get(`gatewayStudio.chat.conversation.${c.id}`)), /base64/);
  const store = new ConversationStore(storage, files());
  const loaded = store.load(c.id);
  assert.equal(loaded?.messages[0]?.role === 'user' && loaded.messages[0].images[0]?.dataUrl, shot.dataUrl);
  await store.save(loaded!);
  assert.doesNotMatch(JSON.stringify(storage.get(`gatewayStudio.chat.conversation.${c.id}`)), /base64/);
  assert.deepEqual(await fs.readdir(folder), [sha(shot)]);
});

void test('past the limit the oldest images are removed; their conversation stays, with a note where the image was', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage, files(5000));
  const first = image('first.png', 3000, 1);
  const second = image('second.png', 3000, 2);
  const older = withImages('First', 1000, [first]);
  await store.save(older);
  // Stored a while ago (file times are the images' age).
  const past = new Date(Date.now() - 3_600_000);
  await fs.utimes(path.join(folder, sha(first)), past, past);
  await store.save(withImages('Second', 5000, [second]));
  assert.deepEqual(await fs.readdir(folder), [sha(second)]);

  const reopened = new ConversationStore(storage, files(5000));
  assert.equal(reopened.list().length, 2, 'both conversations are still in the history');
  const loaded = reopened.load(older.id)!;
  assert.equal(loaded.messages.length, 2, 'every message is kept');
  const user = loaded.messages[0]!;
  assert.ok(user.role === 'user');
  assert.equal(user.text, 'First');
  assert.deepEqual(user.images, []);
  assert.equal(user.attachments?.[0]?.label, 'first.png');
  assert.match(user.attachments?.[0]?.note ?? '', /no longer stored.*gatewayStudio\.chat\.imageStorageMegabytes/);
});

void test('deleting a conversation deletes its images, not those another conversation shares', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage, files());
  const shared = image('shared.png', 100, 9);
  const own = image('own.png', 100, 8);
  const a = withImages('A', 1000, [shared, own]);
  await store.save(a);
  await store.save(withImages('B', 2000, [shared]));
  await store.delete(a.id);
  assert.deepEqual(await fs.readdir(folder), [sha(shared)]);
});

void test('an image file whose bytes do not match its name, or a record naming a path, is not used', async () => {
  const storage = new MemoryStorage();
  const shot = image('shot.png', 200, 5);
  const c = withImages('Q', 1000, [shot]);
  await new ConversationStore(storage, files()).save(c);
  await fs.writeFile(path.join(folder, sha(shot)), 'not the image');
  const key = `gatewayStudio.chat.conversation.${c.id}`;
  const loaded = new ConversationStore(storage, files()).load(c.id)!;
  assert.ok(loaded.messages[0]?.role === 'user');
  assert.deepEqual(loaded.messages[0].images, []);
  const rec = storage.get<{ version: number; conversation: Conversation }>(key)!;
  const msg = rec.conversation.messages[0] as unknown as { images: { file: string }[] };
  msg.images[0]!.file = '../../../../etc/passwd';
  await storage.update(key, rec);
  const again = new ConversationStore(storage, files()).load(c.id)!;
  assert.ok(again.messages[0]?.role === 'user');
  assert.deepEqual(again.messages[0].images, []);
  assert.equal(again.messages[0].attachments?.length, 1);
});
