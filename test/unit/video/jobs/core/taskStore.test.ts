// The workspace's video task records: entries this version cannot read are kept, never dropped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import type { VideoTaskRecord } from '../../../../../src/video/jobs/core/record';
import { WorkspaceTaskStore } from '../../../../../src/video/jobs/vscode/store';
import { MemoryStorage } from '../../../../support/memoryStorage';

const KEY = 'gatewayStudio.video.tasks';

function record(key: string, videoId: string): VideoTaskRecord {
  return {
    v: 1,
    key,
    state: 'polling',
    request: { model: 'gw-video', prompt: 'a cat', images: [] },
    warnings: [],
    videoId,
    polls: 0,
    transientErrors: 0,
    createdAt: 1,
    updatedAt: 1,
  };
}

function storeOver(storage: MemoryStorage): WorkspaceTaskStore {
  return new WorkspaceTaskStore(storage as unknown as vscode.Memento);
}

void test("a newer version's record and a corrupt entry survive saves and removes, untouched", async () => {
  const storage = new MemoryStorage();
  const newer = { v: 2, key: 'k-new', videoId: 'video_billed_123', phase: { name: 'polling' }, created: '2027-01-01' };
  const corrupt = { v: 1, key: 'k-bad', state: 'polling' };
  await storage.update(KEY, { 'k-new': newer, 'k-bad': corrupt, 'k-old': record('k-old', 'video_old') });
  const store = storeOver(storage);
  assert.deepEqual(
    store.load().map((r) => r.key),
    ['k-old'],
    'only the records it understands are loaded',
  );

  await store.save(record('k-1', 'video_1'));
  await store.remove('k-old');
  // A remove of an unreadable entry's key leaves it: it is not this version's to forget.
  await store.remove('k-new');
  await store.save({ ...record('k-1', 'video_1'), state: 'saved' });

  const kept = storage.get<Record<string, unknown>>(KEY)!;
  assert.deepEqual(kept['k-new'], newer);
  assert.deepEqual(kept['k-bad'], corrupt);
  assert.equal(kept['k-old'], undefined);
  assert.equal((kept['k-1'] as VideoTaskRecord).state, 'saved');
  assert.deepEqual(
    storeOver(storage)
      .load()
      .map((r) => r.key),
    ['k-1'],
  );
});

void test('a stored value that is not a map of records is set aside before the first save', async () => {
  const storage = new MemoryStorage();
  const foreign = [{ id: 'video_billed_456', format: 'list of a future version' }];
  await storage.update(KEY, foreign);
  const store = storeOver(storage);
  assert.deepEqual(store.load(), []);
  await store.save(record('k-1', 'video_1'));
  assert.deepEqual(storage.get(`${KEY}.unreadable`), foreign);
  assert.deepEqual(
    storeOver(storage)
      .load()
      .map((r) => r.videoId),
    ['video_1'],
  );
});
