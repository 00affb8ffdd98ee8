// The shared "does this link lead out of the workspace" rule, with real symlinks in temp folders.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkInside, isInside, linkLeadsOut } from '../../../src/files/insideWorkspace';

let base: string;
let ws: string;
let outside: string;

before(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gws-inside-')));
  ws = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  await fs.mkdir(path.join(ws, 'docs'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'id_rsa'), 'PRIVATE KEY');
  await fs.writeFile(path.join(ws, 'docs', 'guide.md'), 'guide');
  await fs.symlink(path.join(outside, 'id_rsa'), path.join(ws, 'AGENTS.md'));
  await fs.symlink(path.join(ws, 'docs', 'guide.md'), path.join(ws, 'inner-link.md'));
  await fs.symlink(outside, path.join(ws, 'outdir'));
  await fs.symlink(path.join(outside, 'not-yet'), path.join(ws, 'dangling'));
});
after(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

void test('isInside compares whole segments: a sibling with the same prefix is outside', () => {
  assert.equal(isInside('/a/ws', '/a/ws'), true);
  assert.equal(isInside('/a/ws', '/a/ws/x/y'), true);
  assert.equal(isInside('/a/ws', '/a/ws-evil/x'), false);
  assert.equal(isInside('/a/ws', '/a'), false);
  assert.equal(isInside('/a/ws', '/a/ws/../other'), false);
  // A name that starts with two dots is still inside.
  assert.equal(isInside('/a/ws', '/a/ws/..hidden'), true);
});

void test('isInside ignores letter case where the file system usually does (Windows, macOS)', () => {
  const expected = process.platform === 'win32' || process.platform === 'darwin';
  assert.equal(isInside('/a/WS', '/a/ws/file'), expected);
});

void test('linkLeadsOut: a workspace file that is a link to a file outside is caught, with its target', async () => {
  assert.equal(await linkLeadsOut(path.join(ws, 'AGENTS.md'), [ws]), path.join(outside, 'id_rsa'));
});

void test('linkLeadsOut: a file under a linked folder, and a dangling link, are judged by their target', async () => {
  assert.equal(await linkLeadsOut(path.join(ws, 'outdir', 'id_rsa'), [ws]), path.join(outside, 'id_rsa'));
  assert.equal(await linkLeadsOut(path.join(ws, 'dangling'), [ws]), path.join(outside, 'not-yet'));
});

void test('linkLeadsOut: plain files and links that stay inside pass', async () => {
  assert.equal(await linkLeadsOut(path.join(ws, 'docs', 'guide.md'), [ws]), undefined);
  assert.equal(await linkLeadsOut(path.join(ws, 'inner-link.md'), [ws]), undefined);
  assert.equal(await linkLeadsOut(path.join(ws, 'missing.md'), [ws]), undefined);
});

void test('linkLeadsOut: a link into another workspace folder stays inside', async () => {
  assert.equal(await linkLeadsOut(path.join(ws, 'AGENTS.md'), [ws, outside]), undefined);
});

void test('linkLeadsOut: a file named outside the workspace is the user choice and passes', async () => {
  assert.equal(await linkLeadsOut(path.join(outside, 'id_rsa'), [ws]), undefined);
});

void test('checkInside: a workspace reached through a linked path still matches its real folder', async () => {
  const alias = path.join(base, 'alias');
  await fs.symlink(ws, alias);
  const c = await checkInside(path.join(ws, 'docs', 'guide.md'), [alias]);
  assert.equal(c.inside, true);
  const out = await checkInside(path.join(alias, 'AGENTS.md'), [alias]);
  assert.equal(out.inside, false);
});

void test('placeProblem refuses a dangling link into .git/hooks (what a write would create there) and a link out; a plain file passes', async () => {
  const { placeProblem } = await import('../../../src/files/insideWorkspace');
  await fs.mkdir(path.join(ws, '.git', 'hooks'), { recursive: true });
  await fs.mkdir(path.join(ws, '.vscode'), { recursive: true });
  const hook = path.join(ws, '.git', 'hooks', 'pre-commit');
  await fs.symlink(hook, path.join(ws, 'x.storyboard.state.json'));
  await fs.symlink(path.join(ws, '.vscode'), path.join(ws, 'frames'));
  const state = await placeProblem(path.join(ws, 'x.storyboard.state.json'), [ws]);
  assert.deepEqual(state, { kind: 'protected', dir: '.git', real: hook });
  assert.equal((await placeProblem(path.join(ws, 'frames', 'a.png'), [ws]))?.kind, 'protected');
  assert.equal((await placeProblem(path.join(ws, '.vscode', 'tasks.json'), [ws]))?.kind, 'protected');
  assert.equal((await placeProblem(path.join(ws, 'dangling'), [ws]))?.kind, 'outside');
  assert.equal((await placeProblem(path.join(ws, 'outdir', 'a.png'), [ws], { userOutside: true }))?.kind, 'outside');
  assert.equal(await placeProblem(path.join(ws, 'docs', 'new.png'), [ws]), undefined);
  // A folder the user named outside every workspace folder is theirs.
  assert.equal(await placeProblem(path.join(outside, 'frames', 'a.png'), [ws], { userOutside: true }), undefined);
  assert.equal((await placeProblem(path.join(outside, 'frames', 'a.png'), [ws]))?.kind, 'outside');
  await assert.rejects(fs.lstat(hook), 'nothing was created in .git/hooks');
});
