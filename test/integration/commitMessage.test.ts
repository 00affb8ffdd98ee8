// Generate Commit Message in the real extension host, with code-server's built-in Git extension:
// a repository made in a temp folder with two staged files gets a message naming both in its
// input box (the local gateway wraps its answer as real models do, and the cleaning unwraps it),
// nothing is committed, the diff travels as data in the user message only; Git turned off, a
// folder without a repository and a clean repository each get one line; a second click stops it.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CommitMessageResult } from '../../src/scm/commitMessage/vscode/generate';
import { control, extension, setSetting, useGatewayWithValidKey, waitFor } from './env';

interface Repo {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
}
interface GitApi {
  openRepository(root: vscode.Uri): Promise<Repo | null>;
}
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}
interface RecordedRequest {
  route: string;
  body: { model?: string; messages?: Array<{ role: string; content: string }> };
}

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** A repository with one commit, then `files` written (and staged when `stage`). */
function makeRepo(files: Record<string, string>, stage: boolean): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gws-commit-')));
  git(dir, 'init', '-q');
  git(dir, 'config', 'user.email', 'test@example.invalid');
  git(dir, 'config', 'user.name', 'Test');
  writeFileSync(join(dir, 'README.md'), '# demo\n');
  git(dir, 'add', 'README.md');
  git(dir, 'commit', '-q', '-m', 'chore: start the demo');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  if (stage) git(dir, 'add', '.');
  return dir;
}

const run = (arg?: unknown): Thenable<CommitMessageResult> =>
  vscode.commands.executeCommand<CommitMessageResult>('gatewayStudio.generateCommitMessage', arg);

async function chatRequests(): Promise<RecordedRequest[]> {
  return ((await control('requests')) as RecordedRequest[]).filter((r) => r.route === '/v1/chat/completions');
}

const gitConfig = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('git');

describe('Generate Commit Message', function () {
  this.timeout(120_000);
  useGatewayWithValidKey();

  it('with Git turned off, says so in one line and asks nothing', async () => {
    await extension();
    await gitConfig().update('enabled', false, vscode.ConfigurationTarget.Global);
    const r = await run();
    assert.equal(r.outcome, 'noRepository');
    assert.match(r.line ?? '', /git\.enabled/);
    assert.doesNotMatch(r.line ?? '', /\n/);
    assert.equal((await chatRequests()).length, 0);
  });

  describe('with the built-in Git extension on', () => {
    let api: GitApi;
    let chatModel: unknown;

    before(async () => {
      const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
      assert.ok(ext, "code-server's built-in Git extension (vscode.git) is not in this host");
      // The host's quiet settings turn Git off (test/host/codeServer.ts); this suite turns it on.
      await gitConfig().update('enabled', true, vscode.ConfigurationTarget.Global);
      const exported = ext.isActive ? ext.exports : await ext.activate();
      await waitFor('the Git extension to turn on', () => exported.enabled);
      api = exported.getAPI(1);
      chatModel = vscode.workspace.getConfiguration('gatewayStudio').inspect('chatModel')?.globalValue;
      await setSetting('chatModel', 'gw-chat');
      await setSetting('utilityModel', 'gw-latest');
    });

    after(async () => {
      await setSetting('utilityModel', undefined);
      await setSetting('chatModel', chatModel);
      await gitConfig().update('enabled', false, vscode.ConfigurationTarget.Global);
    });

    async function open(dir: string): Promise<Repo> {
      const repo = await api.openRepository(vscode.Uri.file(dir));
      assert.ok(repo, `the Git extension did not open ${dir}`);
      return repo;
    }

    it('fills the input box with a message naming both staged files, and commits nothing', async () => {
      const dir = makeRepo({ 'alpha.ts': 'export const alpha = 1;\n', 'beta.ts': 'export const beta = 2;\n' }, true);
      const repo = await open(dir);
      const r = await run(repo.rootUri);
      assert.equal(r.outcome, 'written', r.line);
      const box = repo.inputBox.value;
      assert.match(box, /^feat: update /);
      assert.match(box, /alpha\.ts/);
      assert.match(box, /beta\.ts/);
      assert.doesNotMatch(box, /```|Here is/, 'the answer is cleaned of its preamble and fence');
      assert.equal(r.model, 'gw-latest', 'the utility model is asked');

      const [asked, ...more] = await chatRequests();
      assert.equal(more.length, 0);
      assert.equal(asked?.body.model, 'gw-latest');
      const [system, user] = asked?.body.messages ?? [];
      assert.equal(system?.role, 'system');
      assert.doesNotMatch(
        system?.content ?? '',
        /alpha|beta|start the demo/,
        "the repository's text is not in the instructions",
      );
      assert.match(user?.content ?? '', /^diff --git a\/alpha\.ts b\/alpha\.ts$/m);
      assert.match(user?.content ?? '', /^diff --git a\/beta\.ts b\/beta\.ts$/m);
      assert.match(user?.content ?? '', /chore: start the demo/, 'the last subjects are sent for the house style');

      assert.equal(git(dir, 'rev-list', '--count', 'HEAD'), '1', 'nothing was committed');
      assert.deepEqual(git(dir, 'diff', '--cached', '--name-only').split('\n'), ['alpha.ts', 'beta.ts']);
    });

    it('leaves the diff of a staged .env out of the request and says so in it (issue 35)', async () => {
      const dir = makeRepo(
        {
          'alpha.ts': 'export const alpha = 1;\n',
          '.env': 'API_KEY=sk-live-commit-1234\n',
          'prod.env': 'T=sk-prod-5678\n',
        },
        true,
      );
      const repo = await open(dir);
      const r = await run(repo.rootUri);
      assert.equal(r.outcome, 'written', r.line);
      assert.deepEqual(r.secretLeftOut, ['.env', 'prod.env']);
      const [asked] = await chatRequests();
      const sent = JSON.stringify(asked?.body);
      assert.doesNotMatch(sent, /sk-live-commit-1234|sk-prod-5678|API_KEY/);
      const user = asked?.body.messages?.[1]?.content ?? '';
      assert.match(user, /^diff --git a\/alpha\.ts b\/alpha\.ts$/m);
      assert.match(user, /^diff of \.env left out: secret file$/m);
      assert.match(user, /^diff of prod\.env left out: secret file$/m);
    });

    it('a repository with nothing changed gets one line and no request', async () => {
      const repo = await open(makeRepo({}, false));
      repo.inputBox.value = 'my draft';
      const r = await run({ rootUri: repo.rootUri });
      assert.equal(r.outcome, 'nothingChanged');
      assert.match(r.line ?? '', /no staged or unstaged changes/);
      assert.doesNotMatch(r.line ?? '', /\n/);
      assert.equal(repo.inputBox.value, 'my draft');
      assert.equal((await chatRequests()).length, 0);
    });

    it('a folder that is no repository gets one line', async () => {
      const plain = realpathSync(mkdtempSync(join(tmpdir(), 'gws-no-repo-')));
      const r = await run({ rootUri: vscode.Uri.file(plain) });
      assert.equal(r.outcome, 'noRepository');
      assert.match(r.line ?? '', /No Git repository/);
      assert.doesNotMatch(r.line ?? '', /\n/);
      assert.equal((await chatRequests()).length, 0);
    });

    it('a second click while the message streams stops it and puts back what the box held', async () => {
      const repo = await open(makeRepo({ 'gamma.ts': 'export const gamma = 3;\n' }, false));
      repo.inputBox.value = 'my draft';
      await control('fault', { match: { path: '/v1/chat/completions' }, chunkDelayMs: 400 });
      const first = run(repo.rootUri);
      await waitFor('the message to start streaming', async () => (await chatRequests()).length === 1);
      const second = await run(repo.rootUri);
      assert.equal(second.outcome, 'stopped');
      assert.equal((await first).outcome, 'stopped');
      assert.equal(repo.inputBox.value, 'my draft');
    });
  });
});
