import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { builtinTools } from '../../src/chat/tools/core/builtins';
import { ToolRunner, type ApprovalRequest } from '../../src/chat/tools/core/runner';
import { Approvals } from '../../src/chat/tools/vscode/approval';
import { VscodeToolHost, PROPOSAL_SCHEME } from '../../src/chat/tools/vscode/host';
import { ChatController } from '../../src/chat/vscode/controller';
import type { Services } from '../../src/platform/services';
import type { HostMessage } from '../../src/shared/protocol';
import { FakeWebview } from './fakeWebview';
import { extension, waitFor } from './env';

describe('tools in VS Code', () => {
  it('an edit shows a diff before approval, is applied as an undoable edit, and a command runs', async () => {
    await extension();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    const file = path.join(folder.uri.fsPath, 'src', 'x.ts');
    // A retry finds the first attempt's document open, maybe unsaved: back to the disk first.
    const left = vscode.workspace.textDocuments.find((t) => t.uri.fsPath === file);
    if (left?.isDirty) {
      await vscode.window.showTextDocument(left);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    // Written through VS Code's file service, not node's fs: on a loaded machine the watcher's
    // late event for a node write made the tool's save fail as "modified since" it was read.
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(file)));
    await vscode.workspace.fs.writeFile(vscode.Uri.file(file), Buffer.from('export const n: number = "one";\n'));
    // An open document of this file must show the new text before the tool reads it.
    await waitFor('an open document of src/x.ts to have the new text', () => {
      const d = vscode.workspace.textDocuments.find((t) => t.uri.fsPath === file);
      return !d || d.getText() === 'export const n: number = "one";\n';
    });
    const host = new VscodeToolHost();
    let diffSeen = '';
    const runner = new ToolRunner({
      tools: () => builtinTools(host),
      approve: async (r: ApprovalRequest) => {
        const tab = await waitFor('the diff tab', () =>
          vscode.window.tabGroups.all
            .flatMap((g) => g.tabs)
            .find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === PROPOSAL_SCHEME),
        );
        const input = tab.input as vscode.TabInputTextDiff;
        diffSeen = (await vscode.workspace.openTextDocument(input.modified)).getText();
        assert.ok(['edit_file', 'write_file'].includes(r.name), `only changing tools ask here, not ${r.name}`);
        return 'allow';
      },
      trust: { isTrusted: () => false, trust: () => undefined },
    });
    const call = (id: string, name: string, args: unknown) => ({
      id,
      type: 'function' as const,
      function: { name, arguments: JSON.stringify(args) },
    });
    const [m] = await runner.execute([call('c1', 'edit_file', { path: 'src/x.ts', oldText: '"one"', newText: '1' })], {
      signal: new AbortController().signal,
      conversationId: 'x',
    });
    assert.match(m?.content ?? '', /Edited src\/x\.ts/, m?.content);
    assert.equal(diffSeen, 'export const n: number = 1;\n', 'the proposal shown in the diff');
    const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
    assert.equal(
      open?.getText(),
      'export const n: number = 1;\n',
      `the editor's text after approval (tool said: ${m?.content ?? ''})`,
    );
    assert.equal(
      await fs.readFile(file, 'utf8'),
      'export const n: number = 1;\n',
      `the file on disk after approval (dirty: ${String(open?.isDirty)}; tool said: ${m?.content ?? ''})`,
    );
    await waitFor(
      'the diff to close',
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .every((t) => !(t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === PROPOSAL_SCHEME)),
      10_000,
    );
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
    assert.ok(doc, 'the document is open');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), 'export const n: number = "one";\n', 'undo restores the text');

    // A new file through write_file.
    const [w] = await runner.execute([call('c2', 'write_file', { path: 'src/new/y.ts', content: 'export {};\n' })], {
      signal: new AbortController().signal,
      conversationId: 'x',
    });
    assert.match(w?.content ?? '', /Created src\/new\/y\.ts/, w?.content);
    assert.equal(await fs.readFile(path.join(folder.uri.fsPath, 'src', 'new', 'y.ts'), 'utf8'), 'export {};\n');

    const runner2 = new ToolRunner({
      tools: () => builtinTools(host),
      approve: () => Promise.resolve('allow'),
      trust: { isTrusted: () => false, trust: () => undefined },
    });
    const [c] = await runner2.execute([call('c3', 'run_command', { command: 'echo hi-from-terminal' })], {
      signal: new AbortController().signal,
      conversationId: 'x',
    });
    assert.match(c?.content ?? '', /exited with code 0[\s\S]*hi-from-terminal/, c?.content);
    const [sel] = await runner2.execute([call('c4', 'get_selection', {})], {
      signal: new AbortController().signal,
      conversationId: 'x',
    });
    assert.match(sel?.content ?? '', /active editor is src\/new\/y\.ts/, sel?.content);
    const [d] = await runner2.execute([call('c5', 'get_diagnostics', {})], {
      signal: new AbortController().signal,
      conversationId: 'x',
    });
    assert.match(d?.content ?? '', /problem|No errors/, d?.content);
    host.dispose();
  });

  it('edit_file on .env opens no document or diff and answers the same for a right and a wrong guess until allowed (issue 35)', async () => {
    await extension();
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const file = path.join(root, 'tools-secret', '.env');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'API_KEY=sk-tools-secret-1234\n');
    const host = new VscodeToolHost();
    const asked: string[] = [];
    let decision: 'deny' | 'allow' = 'deny';
    const runner = new ToolRunner({
      tools: () => builtinTools(host),
      approve: (r: ApprovalRequest) => {
        asked.push(JSON.stringify({ summary: r.summary, warning: r.warning, ask: r.askEveryTime, shown: !!r.shown }));
        return Promise.resolve(decision);
      },
      // Trusted: the guard must ask all the same.
      trust: { isTrusted: () => true, trust: () => undefined },
    });
    const edit = async (id: string, oldText: string) =>
      (
        await runner.execute(
          [
            {
              id,
              type: 'function' as const,
              function: {
                name: 'edit_file',
                arguments: JSON.stringify({ path: 'tools-secret/.env', oldText, newText: 'API_KEY=rotated' }),
              },
            },
          ],
          { signal: new AbortController().signal, conversationId: 'secret' },
        )
      )[0]?.content;
    const opened = () =>
      vscode.workspace.textDocuments.some((d) => d.uri.fsPath === file) ||
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputTextDiff);
    try {
      const right = await edit('s1', 'API_KEY=sk-tools-secret-1234');
      const wrong = await edit('s2', 'API_KEY=sk-tools-secret-9999');
      assert.equal(right, wrong);
      assert.match(right ?? '', /declined/);
      assert.equal(asked.length, 2);
      assert.equal(asked[0], asked[1], 'the same question for both guesses');
      assert.match(asked[0] ?? '', /not read before you allow/);
      assert.equal(opened(), false, 'no document or diff of .env was opened before approval');
      decision = 'allow';
      assert.match((await edit('s3', 'API_KEY=sk-tools-secret-1234')) ?? '', /^Edited tools-secret\/\.env/);
      assert.equal(await fs.readFile(file, 'utf8'), 'API_KEY=rotated\n');
    } finally {
      host.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('get_selection reads the editor the user last worked in while the chat has the focus, as @selection does', async () => {
    await extension();
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const file = path.join(root, 'tools-sel', 'picked.ts');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'const a = 1;\nconst b = 2;\n');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    editor.selection = new vscode.Selection(1, 0, 1, 12);
    // A webview panel takes the focus as the chat's editor panel does: no active text editor then.
    const panel = vscode.window.createWebviewPanel('gatewayStudio.testFocus', 'focus', vscode.ViewColumn.Active, {});
    const host = new VscodeToolHost();
    try {
      await waitFor('the text editor to lose the focus', () => vscode.window.activeTextEditor === undefined);
      const runner = new ToolRunner({
        tools: () => builtinTools(host),
        approve: () => Promise.resolve('allow'),
        trust: { isTrusted: () => false, trust: () => undefined },
      });
      const [sel] = await runner.execute(
        [{ id: 's1', type: 'function', function: { name: 'get_selection', arguments: '{}' } }],
        { signal: new AbortController().signal, conversationId: 'x' },
      );
      assert.match(
        sel?.content ?? '',
        /^Selection in tools-sel\/picked\.ts, lines 2-2 \(typescript\):\nconst b = 2;/,
        sel?.content,
      );
    } finally {
      panel.dispose();
      host.dispose();
    }
  });

  it('find_files and list_directory leave out what files.exclude (from VS Code settings) and .gitignore hide', async () => {
    await extension();
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const dir = path.join(root, 'tools-ignore');
    await fs.mkdir(path.join(dir, 'hidden-by-setting'), { recursive: true });
    await fs.writeFile(path.join(dir, 'hidden-by-setting', 'one.txt'), 'x');
    await fs.writeFile(path.join(dir, '.gitignore'), 'ignored.txt\n');
    await fs.writeFile(path.join(dir, 'ignored.txt'), 'x');
    await fs.writeFile(path.join(dir, 'kept.txt'), 'x');
    const files = vscode.workspace.getConfiguration('files');
    await files.update('exclude', { '**/hidden-by-setting': true }, vscode.ConfigurationTarget.Global);
    const host = new VscodeToolHost();
    try {
      const runner = new ToolRunner({
        tools: () => builtinTools(host),
        approve: () => Promise.resolve('allow'),
        trust: { isTrusted: () => false, trust: () => undefined },
      });
      const run = async (name: string, args: unknown) =>
        (
          await runner.execute([{ id: name, type: 'function', function: { name, arguments: JSON.stringify(args) } }], {
            signal: new AbortController().signal,
            conversationId: 'x',
          })
        )[0]?.content ?? '';
      const found = await run('find_files', { pattern: 'tools-ignore/**' });
      assert.match(found, /tools-ignore\/kept\.txt/, found);
      assert.ok(!found.includes('one.txt') && !found.includes('ignored.txt'), found);
      const listed = await run('list_directory', { path: 'tools-ignore' });
      assert.match(listed, /2 entries hidden by \.gitignore or files\.exclude/, listed);
      assert.ok(!listed.includes('hidden-by-setting'), listed);
    } finally {
      host.dispose();
      await files.update('exclude', undefined, vscode.ConfigurationTarget.Global);
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('a written JSON file naming a remote $schema is not opened, so VS Code fetches nothing', async function () {
    this.timeout(60_000);
    await extension();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    // Stands in for the attacker's host: any request for the schema is recorded.
    const fetched: string[] = [];
    const server = http.createServer((req, res) => {
      fetched.push(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      res.end('{"type":"object"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const host = new VscodeToolHost();
    try {
      const call = (id: string, p: string, content: string) => ({
        id,
        type: 'function' as const,
        function: { name: 'write_file', arguments: JSON.stringify({ path: p, content }) },
      });
      const run = (id: string, p: string, content: string) =>
        new ToolRunner({
          tools: () => builtinTools(host),
          approve: () => Promise.resolve('allow'),
          trust: { isTrusted: () => false, trust: () => undefined },
        }).execute([call(id, p, content)], { signal: new AbortController().signal, conversationId: 'x' });
      // The control first: a local schema is opened as before, and VS Code does fetch a remote
      // one when such a document is open (otherwise this test would prove nothing).
      await run('j0', 'conf/plain.json', '{ "a": 1 }\n');
      await waitFor('plain.json shown', () =>
        vscode.workspace.textDocuments.find((d) => d.uri.fsPath.endsWith('plain.json')),
      );
      const probe = vscode.Uri.joinPath(folder.uri, 'conf', 'probe.json');
      await fs.writeFile(probe.fsPath, `{ "$schema": "${url}/probe.json" }\n`);
      await vscode.window.showTextDocument(probe, { preview: true });
      await waitFor('the probe schema to be fetched', () => fetched.includes('/probe.json'), 30_000);

      const [m] = await run('j1', 'conf/evil.json', `{ "$schema": "${url}/evil.json", "a": 1 }\n`);
      await new Promise((r) => setTimeout(r, 4000));
      assert.deepEqual(
        fetched.filter((u) => u === '/evil.json'),
        [],
        "no request for the written file's schema",
      );
      assert.ok(
        !vscode.workspace.textDocuments.some((d) => d.uri.path.endsWith('/evil.json')),
        'no document (not even the diff) holds the written file',
      );
      assert.match(m?.content ?? '', /Created conf\/evil\.json.*written without opening it/s, m?.content);
      assert.match(await fs.readFile(path.join(folder.uri.fsPath, 'conf', 'evil.json'), 'utf8'), /evil\.json/);
    } finally {
      host.dispose();
      server.close();
    }
  });

  it('Restricted Mode: trusted tools ask again (a command in a modal), the card says why, and trust returns when granted', async function () {
    this.timeout(60_000);
    const services = (await extension()).exports as Services;
    let workspaceTrusted = false;
    // The chat's stand-in for vscode.workspace.isTrusted, as the tools feature reads it.
    const controller = new ChatController(services, { isTrusted: () => workspaceTrusted });
    const page = new FakeWebview();
    const attached = controller.attach(page as unknown as vscode.Webview);
    page.fromPage({ type: 'webview/ready' });
    // The one thing a test cannot do is click a modal: this answers it with its first button.
    const modals: { message: string; modal?: boolean; detail?: string }[] = [];
    const dialogs = {
      showWarningMessage: (message: string, options: vscode.MessageOptions, ...items: string[]) => {
        modals.push({ message, ...options });
        return Promise.resolve(items[0]);
      },
    } as unknown as Pick<typeof vscode.window, 'showWarningMessage'>;
    const approvals = new Approvals(
      { onToolDecision: (l) => controller.onToolDecision(l), chatVisible: () => true },
      dialogs,
    );
    const host = new VscodeToolHost();
    const runner = new ToolRunner({
      tools: () => builtinTools(host),
      approve: (r) => approvals.approve(r),
      // Every tool was trusted in Manage Tools.
      trust: { isTrusted: () => true, trust: () => undefined },
      workspaceTrusted: () => controller.isWorkspaceTrusted(),
      onUpdate: (u) => controller.postToolCall(u),
    });
    const run = (id: string, name: string, args: unknown) =>
      runner.execute([{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }], {
        signal: new AbortController().signal,
        // The shown conversation's: a card of another one is not shown.
        conversationId: controller.conversationId,
      });
    const waiting = (id: string) =>
      page.posted.find(
        (m): m is Extract<HostMessage, { type: 'tools/call' }> =>
          m.type === 'tools/call' && m.update.callId === id && m.update.state === 'awaiting-approval',
      );
    try {
      const pending = run('rm1', 'write_file', { path: 'restricted/a.txt', content: 'a\n' });
      const card = await waitFor('the write to wait for the card', () => waiting('rm1'));
      assert.match(card.update.warning ?? '', /not trusted/);
      page.fromPage({ type: 'tools/decide', callId: 'rm1', decision: 'allow' });
      const [w] = await pending;
      assert.match(w?.content ?? '', /^Created restricted\/a\.txt/, w?.content);

      // The chat is on screen, yet the command asks in a modal that names the folder's own configuration.
      const [c] = await run('rm2', 'run_command', { command: 'echo from-restricted' });
      assert.equal(modals.length, 1, 'one modal');
      assert.equal(modals[0]?.modal, true);
      assert.match(modals[0]?.detail ?? '', /\.git\/config[\s\S]*echo from-restricted/);
      assert.match(waiting('rm2')?.update.warning ?? '', /not trusted/);
      assert.match(c?.content ?? '', /from-restricted/, c?.content);

      // Trust granted: the tools' own trust applies again, nothing asks.
      workspaceTrusted = true;
      const [w2] = await run('rm3', 'write_file', { path: 'restricted/b.txt', content: 'b\n' });
      assert.match(w2?.content ?? '', /^Created restricted\/b\.txt/, w2?.content);
      const [c2] = await run('rm4', 'run_command', { command: 'echo trusted-again' });
      assert.match(c2?.content ?? '', /trusted-again/);
      assert.equal(waiting('rm3'), undefined, 'no card waited');
      assert.equal(waiting('rm4'), undefined, 'no card waited');
      assert.equal(modals.length, 1, 'no further modal');
    } finally {
      approvals.dispose();
      host.dispose();
      attached.dispose();
      controller.dispose();
      await fs.rm(path.join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '/nonexistent', 'restricted'), {
        recursive: true,
        force: true,
      });
    }
  });

  it('Manage Tools is registered', async () => {
    const cmds = await vscode.commands.getCommands(true);
    assert.ok(cmds.includes('gatewayStudio.manageTools'), 'manageTools registered');
  });
});
