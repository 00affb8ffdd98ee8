import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveWorkspacePath, ToolPathError, type WorkspaceRoot } from '../../../../../src/chat/tools/core/paths';

let tmp: string;
let ws: string;
let outside: string;
let roots: WorkspaceRoot[];

before(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-paths-')));
  ws = path.join(tmp, 'ws');
  outside = path.join(tmp, 'outside');
  await fs.mkdir(path.join(ws, 'src'), { recursive: true });
  await fs.mkdir(path.join(ws, '.git'), { recursive: true });
  await fs.mkdir(path.join(ws, '.vscode'), { recursive: true });
  await fs.mkdir(outside, { recursive: true });
  await fs.writeFile(path.join(ws, 'src', 'a.ts'), 'export const a = 1;\n');
  await fs.writeFile(path.join(outside, 'secret.txt'), 'secret');
  await fs.symlink(outside, path.join(ws, 'link-out'));
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(ws, 'secret-link.txt'));
  await fs.symlink(path.join(ws, 'src'), path.join(ws, 'link-in'));
  await fs.symlink(path.join(ws, '.git'), path.join(ws, 'git-alias'));
  await fs.symlink(path.join(outside, 'not-yet.txt'), path.join(ws, 'dangling.txt'));
  roots = [{ name: 'ws', path: ws }];
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function refused(p: string, pattern: RegExp, r: WorkspaceRoot[] = roots): Promise<void> {
  await assert.rejects(resolveWorkspacePath(p, r), (e: unknown) => {
    assert.ok(e instanceof ToolPathError, `expected a ToolPathError for ${p}, got ${String(e)}`);
    assert.match(e.message, pattern);
    return true;
  });
}

void test('a relative path inside the workspace resolves to the file', async () => {
  const r = await resolveWorkspacePath('src/a.ts', roots);
  assert.equal(r.absolute, path.join(ws, 'src', 'a.ts'));
  assert.equal(r.relative, 'src/a.ts');
  assert.equal(r.exists, true);
});

void test('a new file inside the workspace resolves and is reported as not existing yet', async () => {
  const r = await resolveWorkspacePath('src/new/dir/b.ts', roots);
  assert.equal(r.exists, false);
  assert.equal(r.relative, 'src/new/dir/b.ts');
});

void test('"../" escapes are refused, also when hidden in the middle of the path', async () => {
  await refused('../outside/secret.txt', /leaves the workspace/);
  await refused('src/../../outside/secret.txt', /leaves the workspace/);
  await refused('src\\..\\..\\outside\\secret.txt', /leaves the workspace/);
});

void test('".." that stays inside the workspace is allowed', async () => {
  const r = await resolveWorkspacePath('src/../src/a.ts', roots);
  assert.equal(r.relative, 'src/a.ts');
});

void test('an absolute path elsewhere is refused, an absolute path inside is accepted', async () => {
  await refused(path.join(outside, 'secret.txt'), /outside the workspace/);
  await refused('/etc/passwd', /outside the workspace/);
  const r = await resolveWorkspacePath(path.join(ws, 'src', 'a.ts'), roots);
  assert.equal(r.relative, 'src/a.ts');
});

void test('symlinks that point outside the workspace are refused, for files, folders and new files below them', async () => {
  await refused('secret-link.txt', /symbolic link that points outside/);
  await refused('link-out/secret.txt', /symbolic link that points outside/);
  await refused('link-out/new-file.txt', /symbolic link that points outside/);
  await refused('dangling.txt', /symbolic link that points outside/);
});

void test('a symlink that stays inside the workspace is allowed', async () => {
  const r = await resolveWorkspacePath('link-in/a.ts', roots);
  assert.equal(r.real, path.join(ws, 'src', 'a.ts'));
});

void test('.git and .vscode are refused directly, in any letter case, and through a symlink', async () => {
  await refused('.git/config', /inside \.git\//);
  await refused('.git', /inside \.git\//);
  await refused('.GIT/hooks/pre-commit', /inside \.git\//);
  await refused('.vscode/settings.json', /inside \.vscode\//);
  await refused('src/.vscode/tasks.json', /inside \.vscode\//);
  await refused('git-alias/config', /inside \.git\//);
});

void test('empty paths and no open folder give errors that say what to do', async () => {
  await refused('', /path is empty/);
  await refused('src/a.ts', /No folder is open/, []);
});

void test('in a multi-root workspace a path can name its folder, or is found under the folder that has it', async () => {
  const other = path.join(tmp, 'other');
  await fs.mkdir(other, { recursive: true });
  await fs.writeFile(path.join(other, 'only-here.md'), '# hi');
  const multi = [...roots, { name: 'other', path: other }];
  assert.equal((await resolveWorkspacePath('other/only-here.md', multi)).absolute, path.join(other, 'only-here.md'));
  assert.equal((await resolveWorkspacePath('only-here.md', multi)).root.name, 'other');
  assert.equal((await resolveWorkspacePath('src/a.ts', multi)).root.name, 'ws');
});

void test('a loop of symbolic links is refused with a clear error instead of hanging', async () => {
  await fs.symlink(path.join(ws, 'loop-b'), path.join(ws, 'loop-a'));
  await fs.symlink(path.join(ws, 'loop-a'), path.join(ws, 'loop-b'));
  await refused('loop-a/file.txt', /loop of symbolic links|too many symbolic links/);
});

void test('Windows name aliases are refused: trailing dot or space, 8.3 short names, ":" streams', async () => {
  const alias = /Windows reads as another name/;
  // Each reaches .git (or another protected or long-named file) on NTFS while passing a name check.
  for (const p of [
    '.git./config',
    '.git /config',
    '.vscode./settings.json',
    'src/a.ts.',
    'src /a.ts',
    'GIT~1/config',
    'PROGRA~1/x.txt',
    'src/FILENA~1.TS',
    'src/a.ts:hidden',
    '.git::$INDEX_ALLOCATION/config',
    'src\\GIT~12\\hooks',
    path.join(ws, 'GIT~1', 'config'),
  ]) {
    await refused(p, alias);
  }
});

void test('names that only look like aliases still resolve: tildes without digits, dots inside', async () => {
  for (const p of ['src/a.ts~', 'src/v1.2.3/notes.md', 'src/~1x/readme', 'src/.eslintrc.json', 'src/foo~bar.ts']) {
    const r = await resolveWorkspacePath(p, roots);
    assert.equal(r.relative, p);
  }
});
