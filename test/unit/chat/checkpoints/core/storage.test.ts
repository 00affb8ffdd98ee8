// The folder storage of checkpoints (src/chat/checkpoints/core/storage.ts): it persists, and refuses
// ids that would leave its folder.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CheckpointStore,
  FolderCheckpointStorage,
  readDiskText,
} from '../../../../../src/chat/checkpoints/core/checkpoints';

import { dirs, ROOTS, setup, useCheckpointDirs } from '../../../../support/checkpointsHarness';

useCheckpointDirs();

void test('checkpoints persist: a new store over the same folder plans the same restore', async () => {
  const { answer } = setup();
  await answer('a1', ['write_file', { path: 'src/a.ts', content: 'changed\n' }]);
  const reopened = new CheckpointStore(new FolderCheckpointStorage(dirs.store));
  assert.deepEqual(await reopened.summaries('c1'), [{ answerId: 'a1', files: 1, unrecorded: 0 }]);
  const plan = await reopened.plan('c1', 'a1', readDiskText, ROOTS());
  assert.equal(plan?.files[0]?.prior, 'export const a = 1;\n');
  assert.equal(plan?.files[0]?.status, 'ok');
  assert.equal(await reopened.totalBytes(), Buffer.byteLength('export const a = 1;\n'));
});

void test('ids that would leave the storage folder are refused', async () => {
  const storage = new FolderCheckpointStorage(dirs.store);
  await assert.rejects(storage.writeIndex('../x', '{}'), /not a conversation id/);
  await assert.rejects(storage.readBlob('c1', '../../etc/passwd'), /not a blob name/);
});
