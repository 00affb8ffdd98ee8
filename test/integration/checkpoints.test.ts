import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { builtinTools } from '../../src/chat/tools/core/builtins';
import { ToolRunner } from '../../src/chat/tools/core/runner';
import { VscodeToolHost } from '../../src/chat/tools/vscode/host';
import { ChatCheckpoints, CHECKPOINT_SCHEME, type CheckpointChat } from '../../src/chat/checkpoints/vscode/checkpoints';
import type { HostMessage } from '../../src/shared/protocol';
import { extension, waitFor } from './env';

/*
 * Checkpoints in a real VS Code: the built-in tools change files through the real tool host
 * (editor buffers, WorkspaceEdit, save), the checkpoints record into a real folder, and the
 * restore is the real WorkspaceEdit. The chat around them is a recording stub.
 */
describe('checkpoints in VS Code', () => {
  it('restore after write_file, edit_file and a created file; a file the user changed meanwhile is skipped until chosen; a re-created store restores the same', async () => {
    await extension();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    const dir = path.join(folder.uri.fsPath, 'ck');
    const a = path.join(dir, 'a.ts');
    const b = path.join(dir, 'b.ts');
    const created = path.join(dir, 'new', 'c.ts');
    await fs.rm(dir, { recursive: true, force: true });
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(a, 'export const a = 1;\n');
    await fs.writeFile(b, 'export const b = 2;\n');
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'gs-ckpt-int-'));

    const sent: HostMessage[] = [];
    const lastOf = <T extends HostMessage['type']>(type: T) =>
      [...sent].reverse().find((m): m is Extract<HostMessage, { type: T }> => m.type === type);
    const chat: CheckpointChat = {
      conversationId: () => 'c_int',
      conversationIds: () => new Set(['c_int']),
      busy: () => false,
      broadcast: (m) => sent.push(m),
      cutFrom: () => Promise.resolve(true),
    };
    const first = new ChatCheckpoints(root, chat, { warn: () => undefined });
    const host = new VscodeToolHost();
    const runner = new ToolRunner({
      tools: () => builtinTools(host, { recorder: first.store }),
      approve: () => Promise.resolve('allow'),
      trust: { isTrusted: () => false, trust: () => undefined },
    });
    const call = (id: string, name: string, args: unknown) => ({
      id,
      type: 'function' as const,
      function: { name, arguments: JSON.stringify(args) },
    });
    const results = await runner.execute(
      [
        call('k1', 'edit_file', { path: 'ck/a.ts', oldText: '= 1', newText: '= 10' }),
        call('k2', 'write_file', { path: 'ck/b.ts', content: 'export const b = 20;\n' }),
        call('k3', 'write_file', { path: 'ck/new/c.ts', content: 'export const c = 3;\n' }),
      ],
      { signal: new AbortController().signal, conversationId: 'c_int', answerId: 'a_1' },
    );
    for (const r of results) assert.match(r.content, /^(Edited|Created)/, r.content);
    assert.equal(await fs.readFile(a, 'utf8'), 'export const a = 10;\n');

    // The user edits b.ts in its editor (unsaved, as a user would leave it).
    const bDoc = await vscode.workspace.openTextDocument(b);
    const userEdit = new vscode.WorkspaceEdit();
    userEdit.insert(bDoc.uri, new vscode.Position(0, 0), '// mine\n');
    assert.ok(await vscode.workspace.applyEdit(userEdit));

    await first.preview('a_1');
    const plan = lastOf('checkpoints/plan');
    assert.ok(plan?.files, 'a plan is sent');
    assert.deepEqual(
      plan.files.map((f) => [f.relative, f.status, f.action]),
      [
        ['ck/a.ts', 'ok', 'restore'],
        ['ck/b.ts', 'changed', 'restore'],
        ['ck/new/c.ts', 'ok', 'delete'],
      ],
    );
    assert.match(plan.files[0]?.diff ?? '', /-export const a = 10;\n\+export const a = 1;/);
    // Open diff: the file now on the left, what Restore makes of it on the right.
    await first.openDiff('a_1', a);
    const tab = await waitFor('the checkpoint diff tab', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === CHECKPOINT_SCHEME),
    );
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal(input.original.fsPath, a);
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), 'export const a = 1;\n');
    await vscode.window.tabGroups.close(tab);
    first.dispose();

    // Persistence: a new store over the same folder (as after a window reload) does the restore.
    const second = new ChatCheckpoints(root, chat, { warn: () => undefined });
    await second.refresh();
    assert.deepEqual(lastOf('checkpoints/list')?.answers, [{ answerId: 'a_1', files: 3, unrecorded: 0 }]);
    await second.restore('a_1', [], false);
    const aDoc = await vscode.workspace.openTextDocument(a);
    assert.equal(aDoc.getText(), 'export const a = 1;\n', 'the editor has the prior text');
    assert.equal(await fs.readFile(a, 'utf8'), 'export const a = 1;\n', 'and the disk');
    await waitFor('the created file to be deleted', async () =>
      fs.access(created).then(
        () => false,
        () => true,
      ),
    );
    assert.equal(bDoc.getText(), '// mine\nexport const b = 20;\n', "the user's change is not overwritten");
    assert.match(
      lastOf('chat/notice')?.text ?? '',
      /Restored 2 file\(s\).*Not restored: ck\/b\.ts \(changed since the answer\)/,
    );

    // The restore was one edit: one undo brings the answer's changes back.
    await vscode.window.showTextDocument(aDoc);
    await vscode.commands.executeCommand('undo');
    await waitFor('undo to bring back the answer', () => aDoc.getText() === 'export const a = 10;\n', 10_000);
    await waitFor('undo to bring back the created file', async () =>
      fs.access(created).then(
        () => true,
        () => false,
      ),
    );

    // Chosen explicitly, the changed file is overwritten too.
    await second.restore('a_1', [b], false);
    assert.equal(bDoc.getText(), 'export const b = 2;\n');
    assert.equal(aDoc.getText(), 'export const a = 1;\n');
    second.dispose();
    host.dispose();
    await vscode.commands.executeCommand('workbench.action.files.saveAll');
    await fs.rm(root, { recursive: true, force: true });
  });
});
