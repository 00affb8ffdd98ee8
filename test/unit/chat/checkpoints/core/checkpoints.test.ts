// The checkpoint store (src/chat/checkpoints/core/checkpoints.ts) through the real built-in tools:
// its limits, deletion and pruning, and what the run_command approval says about it.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { test } from 'node:test';
import { readDiskText, restoreOps } from '../../../../../src/chat/checkpoints/core/checkpoints';
import { builtinTools } from '../../../../../src/chat/tools/core/builtins';
import { ToolRunner } from '../../../../../src/chat/tools/core/runner';
import { nodeToolHost } from '../../../../support/nodeToolHost';

import { dirs, read, ROOTS, setup, useCheckpointDirs } from '../../../../support/checkpointsHarness';

useCheckpointDirs();

void test("over the answer's limit a change is applied but not recorded, and its card says so", async () => {
  const { checkpoints, answer, cards } = setup({ maxCheckpointBytes: 25 });
  await answer(
    'a1',
    ['write_file', { path: 'src/a.ts', content: 'A\n' }],
    ['write_file', { path: 'src/b.ts', content: 'B\n' }],
  );
  assert.equal(await read('src/b.ts'), 'B\n', 'the change is applied anyway');
  const done = cards.filter((c) => c.state === 'done');
  assert.doesNotMatch(done[0]?.resultPreview ?? '', /checkpoint/i);
  assert.match(done[1]?.resultPreview ?? '', /Not in this answer's checkpoint \(it holds 0 MB at most\)/);
  assert.deepEqual(await checkpoints.summaries('c1'), [{ answerId: 'a1', files: 2, unrecorded: 1 }]);
  const plan = await checkpoints.plan('c1', 'a1', readDiskText, ROOTS());
  assert.deepEqual(
    plan?.files.map((f) => [f.relative, f.status]),
    [
      ['src/a.ts', 'ok'],
      ['src/b.ts', 'unrecorded'],
    ],
  );
  const { ops, skipped } = restoreOps(plan ?? { conversationId: '', answerId: '', files: [] }, new Set());
  assert.deepEqual([ops.map((o) => o.relative), skipped.map((s) => s.relative)], [['src/a.ts'], ['src/b.ts']]);
});

void test('over the total limit nothing more is recorded, counted across conversations and after a reopen', async () => {
  const first = setup({ maxTotalBytes: 30 });
  await first.answer('a1', ['write_file', { path: 'src/a.ts', content: 'A\n' }]);
  // A new store over the same folder counts what is already stored.
  const { answer, cards, checkpoints } = setup({ maxTotalBytes: 30 });
  await answer('a2', ['write_file', { path: 'src/b.ts', content: 'B\n' }]);
  assert.match(cards.at(-1)?.resultPreview ?? '', /checkpoints of this workspace hold 0 MB at most/);
  assert.equal(await checkpoints.totalBytes(), 20);
  // Created files cost nothing (no prior content), so they are still recorded.
  await answer('a3', ['write_file', { path: 'src/c.ts', content: 'C\n' }]);
  assert.doesNotMatch(cards.at(-1)?.resultPreview ?? '', /checkpoint/);
});

void test('deleting a conversation deletes its checkpoints; pruning removes those of conversations that are gone', async () => {
  const { checkpoints, answer } = setup();
  await answer('a1', ['write_file', { path: 'src/a.ts', content: 'A\n' }]);
  assert.deepEqual(await fs.readdir(dirs.store), ['c1']);
  assert.deepEqual(await checkpoints.prune(new Set(['c1'])), []);
  await checkpoints.forget('c1');
  assert.deepEqual(await fs.readdir(dirs.store), []);
  await answer('a2', ['write_file', { path: 'src/b.ts', content: 'B\n' }]);
  assert.deepEqual(await checkpoints.prune(new Set(['other'])), ['c1']);
  assert.deepEqual(await fs.readdir(dirs.store), []);
  assert.equal(await checkpoints.totalBytes(), 0);
});

void test('the run_command approval says that its effects cannot be restored', async () => {
  const { checkpoints } = setup();
  const asked: string[] = [];
  const tools = builtinTools(nodeToolHost([{ name: 'ws', path: dirs.ws }]), { recorder: checkpoints });
  const runner = new ToolRunner({
    tools: () => tools,
    approve: (r) => {
      asked.push(r.summary ?? '');
      return Promise.resolve('deny');
    },
    trust: { isTrusted: () => false, trust: () => undefined },
  });
  await runner.execute(
    [{ id: 'x', type: 'function', function: { name: 'run_command', arguments: '{"command":"echo hi"}' } }],
    { signal: new AbortController().signal, conversationId: 'c1' },
  );
  assert.match(asked[0] ?? '', /not recorded in checkpoints/);
});
