// @-mentions in the real extension host: the picker's rows come from the real workspace
// (findFiles, tabs, diagnostics), each kind's content is read through the real VS Code API (the
// git extension on a repository made here, terminals), stored with the message and received by
// the local gateway (its recorded requests).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../src/chat/vscode/controller';
import type { Services } from '../../src/platform/services';
import type { ContextAttachment, MentionItem, UserMessage } from '../../src/shared/protocol';
import { control, extension, gateway, keyStore, setSetting, waitFor } from './env';
import { FakeWebview } from './fakeWebview';

let controller: ChatController | undefined;
let page: FakeWebview;
let attached: vscode.Disposable | undefined;
let root: string;
let n = 0;

function ws(rel: string): vscode.Uri {
  return vscode.Uri.file(path.join(root, rel));
}

async function write(rel: string, text: string | Uint8Array): Promise<vscode.Uri> {
  const file = path.join(root, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return vscode.Uri.file(file);
}

/** The picker's rows for a query, as the webview gets them. */
async function query(q: string): Promise<MentionItem[]> {
  const queryId = `q${++n}`;
  page.fromPage({ type: 'mentions/query', queryId, query: q });
  const r = await waitFor(`the rows for "${q}"`, () =>
    page.posted.find((m) => m.type === 'mentions/results' && m.queryId === queryId),
  );
  return r.type === 'mentions/results' ? r.items : [];
}

interface Sent {
  attachments: ContextAttachment[];
  user: UserMessage;
  /** The content of the last user message the gateway received. */
  received: unknown;
}

/** Sends `text` with the mentions; returns what was stored and what the gateway got. */
async function send(mentions: MentionItem[], text = '#say ok'): Promise<Sent> {
  const requestId = `r${++n}`;
  await control('reset');
  page.fromPage({ type: 'chat/send', requestId, text, images: [], contexts: [], mentions });
  const end = await waitFor('the answer', () => page.end(requestId));
  assert.equal(end.type, 'chat/done', JSON.stringify(end));
  const msg = page.posted.find(
    (m) => m.type === 'chat/message' && m.requestId === requestId && m.message.role === 'user',
  );
  const user = (msg?.type === 'chat/message' ? msg.message : undefined) as UserMessage;
  const requests = (await control('requests')) as {
    route: string;
    body: { messages: { role: string; content: unknown }[] };
  }[];
  const body = requests.filter((r) => r.route === '/v1/chat/completions').at(-1)?.body;
  const received = withoutEditorState(body?.messages.filter((m) => m.role === 'user').at(-1)?.content);
  return { attachments: user.attachments ?? [], user, received };
}

/** The message as the user's words and mentions, without the editor state the client adds after them (issue 39). */
function withoutEditorState(content: unknown): unknown {
  const STATE = '# Editor state';
  if (typeof content === 'string') return content.split(`\n\n${STATE}`)[0];
  if (!Array.isArray(content)) return content;
  return (content as { text?: unknown }[]).filter((p) => !(typeof p.text === 'string' && p.text.startsWith(STATE)));
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as { type: string; text?: string }[])
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('\n');
}

describe('@-mentions in VS Code', () => {
  before(async () => {
    await setSetting('baseUrl', gateway.url);
    await setSetting('chatModel', 'gw-chat');
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  });
  beforeEach(async () => {
    await control('reset');
    await (await keyStore()).set(gateway.validKey);
    const services = (await extension()).exports as Services;
    controller = new ChatController(services);
    page = new FakeWebview();
    attached = controller.attach(page as unknown as vscode.Webview);
    page.fromPage({ type: 'webview/ready' });
    page.fromPage({ type: 'chat/new' });
  });
  afterEach(async () => {
    attached?.dispose();
    controller?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await (await keyStore()).clear();
  });
  after(async () => {
    await setSetting('chatModel', undefined);
  });

  it('mention file: the picker finds workspace files fuzzily, leaving out .gitignore and files.exclude; the file reaches the gateway labelled', async () => {
    await write('.gitignore', 'ignored-build/\n*.secret\n');
    await write('mention-docs/release-plan.md', '# Plan\nShip the mention feature on Friday.\n');
    await write('ignored-build/release-plan-copy.md', 'should not be listed\n');
    await write('mention-docs/release.secret', 'hidden\n');
    await write('mention-docs/excluded-release.md', 'excluded by files.exclude\n');
    await vscode.workspace
      .getConfiguration('files')
      .update('exclude', { '**/excluded-*.md': true }, vscode.ConfigurationTarget.Global);
    try {
      const rows = await query('relplan');
      const labels = rows.map((r) => r.label);
      assert.equal(labels[0], 'mention-docs/release-plan.md', labels.join(', '));
      assert.ok(!labels.some((l) => l.startsWith('ignored-build/')), `gitignored folder listed: ${labels.join(', ')}`);
      const all = (await query('release')).map((r) => r.label);
      assert.ok(!all.includes('mention-docs/release.secret'), `gitignored file listed: ${all.join(', ')}`);
      assert.ok(!all.includes('mention-docs/excluded-release.md'), `files.exclude ignored: ${all.join(', ')}`);
      const folders = (await query('mention-docs')).map((r) => `${r.kind}:${r.label}`);
      assert.ok(folders.includes('folder:mention-docs/'), `the folder is offered: ${folders.join(', ')}`);

      const sent = await send([rows[0]!]);
      assert.equal(sent.attachments[0]?.kind, 'file');
      assert.equal(sent.attachments[0]?.path, 'mention-docs/release-plan.md');
      assert.equal(sent.attachments[0]?.text, '# Plan\nShip the mention feature on Friday.\n');
      assert.match(
        textOf(sent.received),
        /^\[Attached file: mention-docs\/release-plan\.md \(path: mention-docs\/release-plan\.md\)\]\n```markdown\n# Plan\nShip the mention feature on Friday\.\n```\n\n#say ok$/,
      );
    } finally {
      await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('mention file and folder: a workspace entry that is a symbolic link leading outside is refused with a note', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'gws-mention-out-'));
    const secret = path.join(outside, 'id_rsa');
    await fs.writeFile(secret, 'PRIVATE-KEY-BEHIND-A-LINK');
    await fs.mkdir(path.join(root, 'mention-link'), { recursive: true });
    await fs.symlink(secret, path.join(root, 'mention-link', 'notes.md'));
    await fs.symlink(outside, path.join(root, 'mention-link', 'dir'));
    try {
      // Rows the picker issued: the host reads nothing else (see the test of made-up references).
      const rows = [...(await query('mention-link/notes')), ...(await query('mention-link/dir'))].filter((r) =>
        ['mention-link/notes.md', 'mention-link/dir/', 'mention-link/dir'].includes(r.label),
      );
      assert.ok(
        rows.some((r) => r.label === 'mention-link/notes.md'),
        rows.map((r) => r.label).join(', '),
      );
      const sent = await send(rows);
      assert.equal(sent.attachments.length, rows.length);
      for (const a of sent.attachments) {
        assert.equal(a.text, '', JSON.stringify(a));
        // The guard (issued references) or the reader (links out) says so, whichever sees it first.
        assert.match(a.note ?? '', /outside the workspace/);
      }
      assert.ok(!JSON.stringify(sent.received).includes('PRIVATE-KEY'), textOf(sent.received));
      assert.ok(!JSON.stringify(sent.received).includes('id_rsa'), 'the linked folder is not listed');
    } finally {
      await fs.rm(path.join(root, 'mention-link'), { recursive: true, force: true });
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it('mention file: a harmless name that links to the .env beside it is refused with a note (issue 35)', async () => {
    await fs.mkdir(path.join(root, 'mention-envlink'), { recursive: true });
    await write('mention-envlink/.env', 'API_KEY=sk-mention-link-1234\n');
    await fs.symlink(path.join(root, 'mention-envlink', '.env'), path.join(root, 'mention-envlink', 'notes.md'));
    try {
      const row = (await query('mention-envlink/notes')).find((r) => r.label === 'mention-envlink/notes.md');
      assert.ok(row, 'the picker offers it');
      const sent = await send([row]);
      assert.equal(sent.attachments[0]?.text, '');
      assert.match(sent.attachments[0]?.note ?? '', /may hold secrets/);
      assert.ok(!JSON.stringify(sent.received).includes('sk-mention-link'), textOf(sent.received));
    } finally {
      await fs.rm(path.join(root, 'mention-envlink'), { recursive: true, force: true });
    }
  });

  it('mention file: a file over the limit is cut with a truncation note, and the stored message says so', async () => {
    const big = await write('mention-big/huge.txt', 'line of text that repeats\n'.repeat(2000)); // 52,000 chars
    const row = (await query('mention-big/huge')).find((r) => r.ref === big.toString());
    assert.ok(row, 'the picker offers it');
    const sent = await send([row]);
    const a = sent.attachments[0]!;
    assert.equal(a.truncated, true);
    assert.equal(a.originalChars, 52_000);
    assert.ok(a.text.length <= 24_000);
    assert.match(
      textOf(sent.received),
      /\[Truncated: [\d,]+ of 52,000 characters shown; read the rest with a tool if needed\.\]/,
    );
  });

  it('mention folder: a listing of its entries, not their contents', async () => {
    await write('mention-folder/a.txt', 'CONTENT-A');
    await write('mention-folder/sub/b.txt', 'CONTENT-B');
    const rows = await query('mention-folder');
    const folder = rows.find((r) => r.kind === 'folder' && r.label === 'mention-folder/');
    assert.ok(folder, rows.map((r) => r.label).join(', '));
    const sent = await send([folder]);
    assert.equal(sent.attachments[0]?.text, 'sub/\na.txt');
    assert.ok(!textOf(sent.received).includes('CONTENT-A'));
  });

  it('mention open editor: offered from the tabs, and sent with its unsaved text', async () => {
    const uri = await write('mention-open/draft.ts', 'export const saved = 1;\n');
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((b) => b.insert(new vscode.Position(1, 0), 'export const unsaved = 2;\n'));
    const rows = await query('draft');
    const row = rows.find((r) => r.kind === 'editor');
    assert.ok(row, rows.map((r) => `${r.kind}:${r.label}`).join(', '));
    assert.equal(row.label, 'mention-open/draft.ts');
    const sent = await send([row]);
    assert.equal(sent.attachments[0]?.text, 'export const saved = 1;\nexport const unsaved = 2;\n');
    assert.equal(sent.attachments[0]?.language, 'typescript');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('mention selection: the active selection with its file and lines', async () => {
    const uri = await write('mention-sel/code.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    editor.selection = new vscode.Selection(1, 0, 2, 12);
    const rows = await query('selection');
    const row = rows.find((r) => r.kind === 'selection');
    assert.ok(row, rows.map((r) => r.label).join(', '));
    assert.equal(row.detail, 'mention-sel/code.ts:2-3');
    const sent = await send([row]);
    const a = sent.attachments[0]!;
    assert.deepEqual(
      [a.path, a.startLine, a.endLine, a.text],
      ['mention-sel/code.ts', 2, 3, 'const b = 2;\nconst c = 3;'],
    );
    assert.match(
      textOf(sent.received),
      /^\[Attached selection: mention-sel\/code\.ts \(path: mention-sel\/code\.ts, lines 2-3\)\]/,
    );
  });

  it('mention problems: the workspace diagnostics, or those of one file', async () => {
    const one = await write('mention-problems/one.txt', 'x\n');
    const two = await write('mention-problems/two.txt', 'y\n');
    const diags = vscode.languages.createDiagnosticCollection('mention-test');
    try {
      diags.set(one, [
        new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'one is broken', vscode.DiagnosticSeverity.Error),
      ]);
      diags.set(two, [
        new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'two looks odd', vscode.DiagnosticSeverity.Warning),
      ]);
      const all = await send([{ kind: 'problems', label: 'Problems', ref: '' }]);
      assert.match(all.attachments[0]!.text, /mention-problems\/one\.txt:1:1 error: one is broken/);
      assert.match(all.attachments[0]!.text, /mention-problems\/two\.txt:1:1 warning: two looks odd/);
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(two));
      const rows = await query('problems');
      const fileRow = rows.find((r) => r.kind === 'problems' && r.ref === two.toString());
      assert.ok(fileRow, rows.map((r) => r.label).join(', '));
      const only = await send([fileRow]);
      assert.equal(only.attachments[0]!.text, 'mention-problems/two.txt:1:1 warning: two looks odd');
    } finally {
      diags.dispose();
    }
  });

  it('mention changes: without a repository the model is told so; with one, the working-tree diff and untracked files, a secret file only named', async () => {
    await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
    const gitExt = vscode.extensions.getExtension<{
      enabled: boolean;
      getAPI(v: 1): { repositories: readonly unknown[] };
    }>('vscode.git');
    assert.ok(gitExt, 'the built-in git extension is installed');
    await gitExt.activate();
    await waitFor('git to be turned on', () => gitExt.exports.enabled);
    const repo = path.join(root, '.git');
    try {
      const none = await send([{ kind: 'changes', label: 'Changes', ref: '' }]);
      assert.equal(none.attachments[0]?.text, '');
      assert.equal(
        none.attachments[0]?.note,
        'No git repository is open in this workspace, so there are no changes to attach.',
      );
      assert.match(textOf(none.received), /No git repository is open in this workspace/);

      const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' });
      git('init', '-q');
      git('config', 'user.email', 'test@example.com');
      git('config', 'user.name', 'Test');
      await write('mention-git/tracked.txt', 'first line\n');
      await write('mention-git/.env', 'TOKEN=sk-mention-old\n');
      git('add', 'mention-git/tracked.txt', 'mention-git/.env');
      git('commit', '-q', '-m', 'start');
      await write('mention-git/tracked.txt', 'first line\nsecond line\n');
      await write('mention-git/.env', 'TOKEN=sk-mention-new\n');
      await write('mention-git/new-file.txt', 'brand new\n');
      const sent = await waitFor(
        'the diff through the git extension',
        async () => {
          const s = await send([{ kind: 'changes', label: 'Changes', ref: '' }]);
          return s.attachments[0]?.text.includes('+second line') ? s : undefined;
        },
        45_000,
      );
      const text = sent.attachments[0]!.text;
      assert.match(text, /# Unstaged changes\ndiff --git a\/mention-git\/tracked\.txt b\/mention-git\/tracked\.txt/);
      assert.match(text, /# Untracked files\n[^#]*mention-git\/new-file\.txt/);
      assert.equal(sent.attachments[0]?.language, 'diff');
      assert.match(textOf(sent.received), /\+second line/);
      // Issue 35: the .env diff is its values; it is named, never attached nor sent.
      assert.match(text, /^diff of mention-git\/\.env left out: secret file$/m);
      assert.doesNotMatch(JSON.stringify(sent.received), /sk-mention/);
      assert.doesNotMatch(text, /sk-mention/);
    } finally {
      // Closed first: the extension keeps running git in an open repository (check-ignore on file
      // events), and a repository deleted under it fails those runs with an uncaught EPIPE.
      // (Turning git.enabled off again takes a reload.)
      const api = gitExt.exports.getAPI(1);
      if (api.repositories.length > 0) {
        await vscode.commands.executeCommand('git.close');
        await waitFor('the repository to be closed', () => api.repositories.length === 0);
        // Its last status and check-ignore runs finish before the folder goes.
        await new Promise((r) => setTimeout(r, 1500));
      }
      await vscode.workspace.getConfiguration('git').update('enabled', undefined, vscode.ConfigurationTarget.Global);
      await fs.rm(repo, { recursive: true, force: true });
    }
  });

  it('mention terminal: without a terminal the model is told so; with shell integration, the last command and its output', async () => {
    for (const t of vscode.window.terminals) t.dispose();
    await waitFor('no terminals', () => vscode.window.terminals.length === 0);
    const none = await send([{ kind: 'terminal', label: 'Terminal', ref: '' }]);
    assert.equal(none.attachments[0]?.note, 'There is no terminal open, so there is no output to attach.');

    const terminal = vscode.window.createTerminal({ name: 'mention-term', shellPath: '/bin/bash' });
    try {
      terminal.show();
      const integration = await waitFor('shell integration in the terminal', () => terminal.shellIntegration, 30_000);
      const ended = new Promise<void>((resolve) => {
        const sub = vscode.window.onDidEndTerminalShellExecution((e) => {
          if (e.terminal === terminal) {
            sub.dispose();
            resolve();
          }
        });
      });
      // Output that starts at once can outrun the reader shell integration hands out (VS Code
      // gives a command's output only to a reader started while it runs); a user's commands
      // mostly take longer than this pause.
      integration.executeCommand('sleep 0.5; echo mention-terminal-$((40+2))');
      await ended;
      let seen = '';
      const sent = await waitFor('the command in the attachment', async () => {
        const s = await send([{ kind: 'terminal', label: 'Terminal', ref: '' }]);
        seen = JSON.stringify(s.attachments[0]);
        return s.attachments[0]?.text.includes('mention-terminal-42') ? s : undefined;
      }).catch((err: Error) => {
        throw new Error(`${err.message}; last attachment: ${seen}`);
      });
      assert.match(
        sent.attachments[0]!.text,
        /^\$ sleep 0\.5; echo mention-terminal-\$\(\(40\+2\)\) \(exit code 0\)\n/,
      );
      assert.equal(sent.attachments[0]?.label, 'Terminal: mention-term');
    } finally {
      terminal.dispose();
    }
  });

  it('mention terminal: a terminal without shell integration is named in a clear note', async () => {
    await vscode.workspace
      .getConfiguration('terminal.integrated.shellIntegration')
      .update('enabled', false, vscode.ConfigurationTarget.Global);
    const terminal = vscode.window.createTerminal({ name: 'plain-term', shellPath: '/bin/sh' });
    try {
      terminal.show();
      await waitFor('the terminal to be active', () => vscode.window.activeTerminal === terminal);
      const sent = await send([{ kind: 'terminal', label: 'Terminal', ref: '' }]);
      assert.match(
        sent.attachments[0]?.note ?? '',
        /^The terminal "plain-term" has no shell integration, so its output cannot be read\./,
      );
    } finally {
      terminal.dispose();
      await vscode.workspace
        .getConfiguration('terminal.integrated.shellIntegration')
        .update('enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('mention image: an image part for a model that takes images, a note for one that does not; the path is given either way', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const uri = await write('mention-img/diagram.png', png);
    const rows = await query('diagram');
    const row = rows.find((r) => r.label === 'mention-img/diagram.png');
    assert.equal(row?.kind, 'image');
    page.fromPage({ type: 'models/refresh' });
    await waitFor('the model list', () =>
      page.posted.some((m) => m.type === 'models/list' && !m.loading && m.models.length > 0),
    );

    page.fromPage({ type: 'chat/setModel', model: 'gw-vision' });
    const vision = await send([row!], 'what is this');
    assert.equal(vision.user.images.length, 1);
    assert.equal(vision.user.images[0]?.name, 'mention-img/diagram.png');
    const parts = vision.received as { type: string; image_url?: { url: string } }[];
    assert.ok(Array.isArray(parts), `sent as parts, not ${JSON.stringify(parts).slice(0, 300)}`);
    assert.equal(
      parts.find((p) => p.type === 'image_url')?.image_url?.url,
      `data:image/png;base64,${png.toString('base64')}`,
    );
    assert.match(textOf(parts), /Its workspace path is mention-img\/diagram\.png/);

    page.fromPage({ type: 'chat/new' });
    page.fromPage({ type: 'chat/setModel', model: 'gw-chat' });
    const plain = await send([row!], 'what is this');
    assert.equal(plain.user.images.length, 0);
    assert.equal(typeof plain.received, 'string');
    assert.match(String(plain.received), /The image was not sent: the model gw-chat does not take images\./);
    assert.match(String(plain.received), /Its workspace path is mention-img\/diagram\.png/);
    assert.ok(uri);
  });

  it('Add File to Chat is in the explorer and editor-tab menus; files it adds become chips (folders too)', async () => {
    const ext = await extension();
    const menus = (ext.packageJSON as { contributes: { menus: Record<string, { command: string }[]> } }).contributes
      .menus;
    assert.ok(menus['explorer/context']?.some((m) => m.command === 'gatewayStudio.addFileToChat'));
    assert.ok(menus['editor/title/context']?.some((m) => m.command === 'gatewayStudio.addFileToChat'));
    assert.ok((await vscode.commands.getCommands(true)).includes('gatewayStudio.addFileToChat'));
    const file = await write('mention-add/x.ts', 'x');
    await controller!.addFiles([file, ws('mention-add'), ws('mention-add/missing.ts')]);
    const msg = await waitFor('the chips', () => page.posted.find((m) => m.type === 'mentions/add'));
    assert.deepEqual(msg.type === 'mentions/add' ? msg.items.map((i) => [i.kind, i.label]) : [], [
      ['file', 'mention-add/x.ts'],
      ['folder', 'mention-add/'],
    ]);
    assert.match(msg.type === 'mentions/add' ? (msg.problems[0] ?? '') : '', /missing\.ts was not found/);
  });

  it('a drop of explorer URIs becomes chips; text that is not a URI is ignored', async () => {
    const file = await write('mention-drop/y.md', 'y');
    page.fromPage({ type: 'mentions/drop', uris: [file.toString(), 'not a uri at all'] });
    const msg = await waitFor('the chips', () => page.posted.find((m) => m.type === 'mentions/add'));
    assert.deepEqual(msg.type === 'mentions/add' ? msg.items.map((i) => i.label) : [], ['mention-drop/y.md']);
  });

  it('a reference the host did not issue is refused and not read: outside the workspace, in it, as an image or a folder', async () => {
    const outsideDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gs-outside-'));
    try {
      const secret = path.join(outsideDir, 'id_rsa');
      await fs.writeFile(secret, 'OUTSIDE-SECRET-4711\n');
      const inside = await write('mention-unoffered/plan.md', 'INSIDE-NOT-OFFERED-4712\n');
      const sent = await send([
        { kind: 'file', label: 'notes.txt', ref: vscode.Uri.file(secret).toString() },
        { kind: 'image', label: 'diagram.png', ref: vscode.Uri.file(secret).toString() },
        { kind: 'folder', label: 'docs/', ref: vscode.Uri.file(outsideDir).toString() },
        { kind: 'file', label: 'plan.md', ref: inside.toString() },
        { kind: 'file', label: 'share.txt', ref: 'file://evil-server/share/x.txt' },
      ]);
      assert.equal(sent.attachments.length, 5);
      for (const a of sent.attachments) {
        assert.equal(a.text, '', `${a.label} has no content`);
        assert.match(a.note ?? '', /^Not read: this chat did not offer/, a.label);
      }
      assert.equal(sent.user.images.length, 0);
      const received = textOf(sent.received);
      assert.ok(!received.includes('OUTSIDE-SECRET-4711'), received);
      assert.ok(!received.includes('INSIDE-NOT-OFFERED-4712'), received);
      assert.ok(!received.includes('id_rsa'), 'the folder listing was not read either');
    } finally {
      await fs.rm(outsideDir, { recursive: true, force: true });
    }
  });

  it("a repository's symbolic link that leads out of the workspace is offered by name but not read", async () => {
    const outsideDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gs-outside-'));
    try {
      await fs.writeFile(path.join(outsideDir, 'credentials'), 'LINKED-SECRET-4713\n');
      await fs.mkdir(path.join(root, 'mention-link'), { recursive: true });
      await fs.rm(path.join(root, 'mention-link', 'notes.txt'), { force: true });
      await fs.symlink(path.join(outsideDir, 'credentials'), path.join(root, 'mention-link', 'notes.txt'));
      const row = (await query('mention-link/notes')).find((r) => r.label === 'mention-link/notes.txt');
      assert.ok(row, 'listed by the picker');
      const sent = await send([row]);
      assert.equal(sent.attachments[0]?.text, '');
      assert.match(sent.attachments[0]?.note ?? '', /outside the workspace/);
      assert.ok(!textOf(sent.received).includes('LINKED-SECRET-4713'));
    } finally {
      await fs.rm(path.join(root, 'mention-link'), { recursive: true, force: true });
      await fs.rm(outsideDir, { recursive: true, force: true });
    }
  });

  it('the picker follows the workspace after its first listing: a new file is offered, a deleted one goes, a .gitignore written or edited lists again', async () => {
    await write('watched/alpha-watched.ts', 'a\n');
    const before = await fs.readFile(path.join(root, '.gitignore'), 'utf8').catch(() => undefined);
    const labels = async (q: string): Promise<string[]> => (await query(q)).map((r) => r.label);
    try {
      // The first query lists the workspace; later files come from the watcher, not a new listing.
      assert.ok((await labels('alphawatched')).includes('watched/alpha-watched.ts'));
      await write('watched/beta-watched.ts', 'b\n');
      await waitFor('the created file in the picker', async () =>
        (await labels('betawatched')).includes('watched/beta-watched.ts'),
      );
      await fs.rm(path.join(root, 'watched/alpha-watched.ts'));
      await waitFor(
        'the deleted file gone from the picker',
        async () => !(await labels('alphawatched')).includes('watched/alpha-watched.ts'),
      );
      assert.ok((await labels('watched/')).includes('watched/'), 'the folder stays while a file is in it');
      // A .gitignore written now hides what it names from the next query.
      await write('.gitignore', `${before ?? ''}watched/beta-*.ts\n`);
      await waitFor(
        'the ignored file gone after the listing was made again',
        async () => !(await labels('betawatched')).includes('watched/beta-watched.ts'),
      );
    } finally {
      await fs.rm(path.join(root, 'watched'), { recursive: true, force: true });
      if (before === undefined) await fs.rm(path.join(root, '.gitignore'), { force: true });
      else await fs.writeFile(path.join(root, '.gitignore'), before);
    }
  });

  it('of queries typed while the workspace is first listed only the newest is answered with rows; the older get none', async () => {
    await write('stale-query/gamma-stale.ts', 'g\n');
    try {
      const ids = ['qa', 'qb', 'qc'].map((id) => `${id}${++n}`);
      // All three before the listing ends (it starts with the first): only the last one counts.
      page.fromPage({ type: 'mentions/query', queryId: ids[0]!, query: 'g' });
      page.fromPage({ type: 'mentions/query', queryId: ids[1]!, query: 'ga' });
      page.fromPage({ type: 'mentions/query', queryId: ids[2]!, query: 'gammastale' });
      const rows = await Promise.all(
        ids.map((id) =>
          waitFor(`the answer to ${id}`, () =>
            page.posted.find((m) => m.type === 'mentions/results' && m.queryId === id),
          ).then((r) => (r.type === 'mentions/results' ? r.items.map((i) => i.label) : [])),
        ),
      );
      assert.deepEqual(rows[0], [], `the first query is moot: ${rows[0]!.join(', ')}`);
      assert.deepEqual(rows[1], [], `the second query is moot: ${rows[1]!.join(', ')}`);
      assert.equal(rows[2]![0], 'stale-query/gamma-stale.ts', rows[2]!.join(', '));
    } finally {
      await fs.rm(path.join(root, 'stale-query'), { recursive: true, force: true });
    }
  });
});
