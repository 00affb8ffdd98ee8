// git's exclude files besides .gitignore (src/completion/inline/core/gitExcludes.ts), read from
// real repositories and config files in temp folders: completion honours them (issue 35, item 9).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
  configValue,
  excludesFilePath,
  findRepo,
  gitExcludeMatcher,
} from '../../../../../src/completion/inline/core/gitExcludes';

let tmp: string;
let home: string;
let repo: string;
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

before(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-gitexcludes-')));
  home = path.join(tmp, 'home');
  repo = path.join(tmp, 'repo');
  await fs.mkdir(home);
  await fs.mkdir(path.join(repo, 'src', 'deep'), { recursive: true });
  git(repo, 'init', '-q');
  await fs.writeFile(path.join(repo, '.git', 'info', 'exclude'), '# mine\nscratch/\n/notes.local.ts\n');
});
after(async () => fs.rm(tmp, { recursive: true, force: true }));

void test('.git/info/exclude applies from the repository root, also to a file in a workspace folder below it', async () => {
  const env = { home };
  const atRoot = await gitExcludeMatcher(repo, repo, env);
  assert.equal(atRoot(path.join(repo, 'notes.local.ts')), true);
  assert.equal(atRoot(path.join(repo, 'scratch', 'x.ts')), true);
  assert.equal(atRoot(path.join(repo, 'src', 'main.ts')), false);
  const below = await gitExcludeMatcher(path.join(repo, 'src', 'deep'), path.join(repo, 'src'), env);
  assert.equal(below(path.join(repo, 'src', 'deep', 'scratch', 'y.ts')), true);
  assert.equal(
    below(path.join(repo, 'src', 'notes.local.ts')),
    false,
    'anchored at the repository root, not the folder',
  );
});

void test('the global excludes file: the XDG default, ~/.gitconfig core.excludesFile, and the repository config last', async () => {
  await fs.mkdir(path.join(home, '.config', 'git'), { recursive: true });
  await fs.writeFile(path.join(home, '.config', 'git', 'ignore'), '*.private.ts\n');
  const m1 = await gitExcludeMatcher(repo, repo, { home });
  assert.equal(m1(path.join(repo, 'src', 'a.private.ts')), true, 'default ~/.config/git/ignore');
  assert.equal(
    await excludesFilePath(undefined, { home, xdgConfigHome: path.join(tmp, 'xdg') }),
    path.join(tmp, 'xdg', 'git', 'ignore'),
  );

  await fs.writeFile(
    path.join(home, '.gitconfig'),
    '[user]\n\tname = x\n[Core]\n\tExcludesFile = "~/my ignore" ; mine\n',
  );
  await fs.writeFile(path.join(home, 'my ignore'), 'draft-*\n');
  const m2 = await gitExcludeMatcher(repo, repo, { home });
  assert.equal(m2(path.join(repo, 'draft-1.ts')), true, 'core.excludesFile of ~/.gitconfig');
  assert.equal(m2(path.join(repo, 'src', 'a.private.ts')), false, 'it replaces the default');
  assert.equal(m2(path.join(repo, 'notes.local.ts')), true, 'info/exclude still applies');

  git(repo, 'config', 'core.excludesFile', path.join(tmp, 'repo-ignore'));
  await fs.writeFile(path.join(tmp, 'repo-ignore'), 'only-here.ts\n');
  const m3 = await gitExcludeMatcher(repo, repo, { home });
  assert.equal(m3(path.join(repo, 'only-here.ts')), true, "the repository's own setting wins, as in git");
  git(repo, 'config', '--unset', 'core.excludesFile');
});

void test('a worktree finds its info/exclude in the shared git folder', async () => {
  git(repo, '-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'start');
  const wt = path.join(tmp, 'wt');
  git(repo, 'worktree', 'add', '-q', wt);
  const found = await findRepo(path.join(wt));
  assert.equal(found?.root, wt);
  assert.equal(await fs.realpath(found!.commonDir), await fs.realpath(path.join(repo, '.git')));
  const m = await gitExcludeMatcher(wt, wt, { home });
  assert.equal(m(path.join(wt, 'scratch', 'z.ts')), true);
});

void test('an excludes file that is a FIFO or too large is skipped, not waited on', { timeout: 5000 }, async () => {
  const fifo = path.join(tmp, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const h2 = path.join(tmp, 'home2');
  await fs.mkdir(h2);
  await fs.writeFile(path.join(h2, '.gitconfig'), `[core]\n  excludesfile = ${fifo}\n`);
  const m = await gitExcludeMatcher(repo, repo, { home: h2 });
  assert.equal(m(path.join(repo, 'notes.local.ts')), true, 'info/exclude still read');
  await fs.writeFile(path.join(h2, 'big'), `x.ts\n${'#'.repeat(300 * 1024)}\n`);
  await fs.writeFile(path.join(h2, '.gitconfig'), `[core]\n  excludesfile = ${path.join(h2, 'big')}\n`);
  assert.equal((await gitExcludeMatcher(repo, repo, { home: h2 }))(path.join(repo, 'x.ts')), false);
});

void test('configValue: sections and keys case-insensitive, subsections apart, comments and quotes', () => {
  const text = '[core "x"]\n excludesFile = no\n[core]\n excludesfile = a # c\n[other]\n excludesFile = no\n';
  assert.equal(configValue(text, 'core', 'excludesfile'), 'a');
  assert.equal(configValue('[CORE]\nExcludesFile="a\\tb"\n', 'core', 'excludesfile'), 'a\tb');
  assert.equal(configValue('[user]\nname = x\n', 'core', 'excludesfile'), undefined);
});
