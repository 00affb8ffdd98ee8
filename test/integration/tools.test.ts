import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { builtinTools } from '../../src/chat/core/toolBuiltins';
import { ToolRunner, type ApprovalRequest } from '../../src/chat/core/toolRunner';
import { VscodeToolHost, PROPOSAL_SCHEME } from '../../src/chat/tools/vscodeHost';
import { extension, waitFor } from './env';

describe('tools in VS Code', () => {
  it('an edit shows a diff before approval, is applied as an undoable edit, and a command runs', async () => {
    await extension();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    const file = path.join(folder.uri.fsPath, 'src', 'x.ts');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'export const n: number = "one";\n');
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

  it('Manage Tools is registered', async () => {
    const cmds = await vscode.commands.getCommands(true);
    assert.ok(cmds.includes('gatewayStudio.manageTools'), 'manageTools registered');
  });
});
