// A hostile repository's hooks in a real extension host: its .claude/settings.json tries to run a
// command at every tool call. It must not run in Restricted Mode, nor before the user approved the
// file's exact content, and a changed file asks again. (Written with issue 37; run by the host
// integration stage, not by the unit tests.)
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { chatPolicies } from '../../src/chat/hooks/vscode/policies';
import { persistedState } from '../../src/platform/persistedState';
import { extension } from './env';

/** A Memento in memory: the approvals of this test only. */
function memento(): vscode.Memento & { setKeysForSync(keys: readonly string[]): void } {
  const m = new Map<string, unknown>();
  return {
    keys: () => [...m.keys()],
    get: <T>(k: string, d?: T) => (m.has(k) ? (m.get(k) as T) : d),
    update: (k: string, v: unknown) => {
      if (v === undefined) m.delete(k);
      else m.set(k, v);
      return Promise.resolve();
    },
    setKeysForSync: () => undefined,
  } as vscode.Memento & { setKeysForSync(keys: readonly string[]): void };
}

describe('hooks from a workspace', () => {
  let marker: string;
  let settings: string;
  const gateCall = () => ({
    name: 'run_command',
    args: { command: 'echo hi' },
    callId: 'c1',
    conversationId: 'conv',
    readOnly: false,
    signal: new AbortController().signal,
  });
  const realWarning = vscode.window.showWarningMessage;
  let answers: (string | undefined)[] = [];
  let asked = 0;

  before(async () => {
    await extension();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    marker = path.join(folder.uri.fsPath, 'hook-ran.txt');
    settings = path.join(folder.uri.fsPath, '.claude', 'settings.json');
    await fs.mkdir(path.dirname(settings), { recursive: true });
    // The modal is answered by the test: each call takes the next answer.
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = () => {
      asked++;
      return Promise.resolve(answers.shift());
    };
  });
  after(async () => {
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = realWarning;
    await fs.rm(path.dirname(settings), { recursive: true, force: true });
    await fs.rm(marker, { force: true });
  });
  beforeEach(async () => {
    asked = 0;
    answers = [];
    await fs.rm(marker, { force: true });
    await writeHooks('first');
  });

  async function writeHooks(tag: string): Promise<void> {
    const command = `node -e "require('fs').writeFileSync('${marker}', '${tag}')"`;
    await fs.writeFile(
      settings,
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command }] }] } }),
    );
  }
  const ran = () =>
    fs.access(marker).then(
      () => true,
      () => false,
    );
  const stateOf = async (p: ReturnType<typeof chatPolicies>) =>
    (await p.sources[0]?.list())?.find((s) => s.path === settings);

  it('in Restricted Mode the hooks neither run nor ask, and the list says why', async () => {
    const p = chatPolicies({
      state: persistedState({ globalState: memento(), workspaceState: memento() }),
      isTrusted: () => false,
    });
    await p.gate.before(gateCall());
    assert.equal(await ran(), false);
    assert.equal(asked, 0);
    const listed = await stateOf(p);
    assert.equal(listed?.state, 'off');
    assert.match(listed?.why ?? '', /Restricted Mode/);
  });

  it('before approval nothing runs; once approved it runs; a changed file asks again', async () => {
    const p = chatPolicies({
      state: persistedState({ globalState: memento(), workspaceState: memento() }),
      isTrusted: () => true,
    });
    answers = [undefined];
    await p.gate.before(gateCall());
    assert.equal(await ran(), false, 'declined: the hook did not run');
    assert.equal(asked, 1);
    await p.gate.before(gateCall());
    assert.equal(asked, 1, 'a declined content is not asked again in this window');
    assert.equal((await stateOf(p))?.state, 'off');

    await writeHooks('second');
    answers = [vscode.l10n.t('Allow these hooks')];
    await p.gate.before(gateCall());
    assert.equal(asked, 2, 'the changed file asks');
    assert.equal(await fs.readFile(marker, 'utf8'), 'second');
    assert.equal((await stateOf(p))?.state, 'applies');

    await fs.rm(marker);
    await writeHooks('third');
    answers = [undefined];
    await p.gate.before(gateCall());
    assert.equal(asked, 3, 'an approved file that changed asks again');
    assert.equal(await ran(), false);
  });

  it('the approval covers the script the hook runs: a changed script asks again and does not run', async () => {
    const script = path.join(path.dirname(settings), 'hooks', 'gate.js');
    await fs.mkdir(path.dirname(script), { recursive: true });
    const writeScript = (tag: string) =>
      fs.writeFile(script, `require('fs').writeFileSync(${JSON.stringify(marker)}, '${tag}');\n`);
    await writeScript('script one');
    const command = 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.js';
    await fs.writeFile(
      settings,
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command }] }] } }),
    );
    const p = chatPolicies({
      state: persistedState({ globalState: memento(), workspaceState: memento() }),
      isTrusted: () => true,
    });
    answers = [vscode.l10n.t('Allow these hooks')];
    await p.gate.before(gateCall());
    assert.equal(await fs.readFile(marker, 'utf8'), 'script one');
    assert.equal(asked, 1);

    // The repository changes only the script; the hook file is the same.
    await fs.rm(marker);
    await writeScript('script two');
    answers = [undefined];
    await p.gate.before(gateCall());
    assert.equal(asked, 2, 'the changed script asks');
    assert.equal(await ran(), false, 'declined: the changed script did not run');
  });
});
