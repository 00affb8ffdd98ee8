// The chat's host side in the real extension host: a ChatController (the same class the panel
// uses) attached to an in-memory webview, talking to the local gateway over HTTP. What the
// conversation does is tested in plain node (test/unit/chat-session*.test.ts and the save-point
// tests); here what needs VS Code: the webview's input checks, the export, the views' replay.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../src/chat/vscode/controller';
import type { Services } from '../../src/platform/services';
import { control, extension, gateway, keyStore, setSetting, waitFor } from './env';
import { FakeWebview } from './fakeWebview';

/** A folder `/read-only` whose files cannot be written, with the error a read-only disk folder gives. */
class ReadOnlyFolder implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    if (uri.path === '/' || uri.path === '/read-only')
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  readFile(uri: vscode.Uri): Uint8Array {
    throw vscode.FileSystemError.FileNotFound(uri);
  }
  createDirectory(uri: vscode.Uri): void {
    this.refuse(uri);
  }
  writeFile(uri: vscode.Uri): void {
    this.refuse(uri);
  }
  delete(uri: vscode.Uri): void {
    this.refuse(uri);
  }
  rename(uri: vscode.Uri): void {
    this.refuse(uri);
  }
  private refuse(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(`EACCES: permission denied, open '${uri.path}'`);
  }
}

let controller: ChatController | undefined;
let page: FakeWebview;
let attached: vscode.Disposable | undefined;

function send(requestId: string, text: string): void {
  page.fromPage({ type: 'chat/send', requestId, text, images: [], contexts: [] });
}

describe('chat host side', () => {
  before(async () => {
    await setSetting('baseUrl', gateway.url);
    await setSetting('chatModel', 'gw-chat');
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
    await control('clear');
    await (await keyStore()).clear();
  });
  after(async () => {
    await setSetting('chatModel', undefined);
  });

  it('a message is answered with a streamed reply that ends with chat/done', async () => {
    send('r1', 'hello from the extension host');
    const end = await waitFor('the end of r1', () => page.end('r1'));
    assert.equal(end.type, 'chat/done');
    assert.equal(page.streamed('r1'), 'Echo: hello from the extension host');
    assert.ok(page.posted.filter((m) => m.type === 'chat/delta').length >= 1, 'deltas were posted');
    assert.equal(end.message?.status, 'done');
    assert.equal(end.message?.content, 'Echo: hello from the extension host');
  });

  it('cancelling a long answer stops it midway and keeps what arrived', async () => {
    await control('fault', { match: { path: '/v1/chat/completions' }, chunkDelayMs: 15 });
    send('r2', '#long 2000');
    await waitFor('some streamed text', () => page.streamed('r2').length > 20);
    page.fromPage({ type: 'chat/cancel', requestId: 'r2' });
    const end = await waitFor('the end of r2', () => page.end('r2'), 30_000);
    assert.equal(end.message?.status, 'stopped', `ended as ${JSON.stringify(end.message?.status)}`);
    const kept = end.message?.content ?? '';
    assert.ok(kept.length > 20, 'the partial answer is kept');
    assert.ok(kept.split(/\s+/).length < 1500, `the answer was not stopped (${kept.split(/\s+/).length} words)`);
  });

  it('a wrong key ends the request with a 401 error view offering Set API Key', async () => {
    await (await keyStore()).set('sk-wrong-key');
    send('r3', 'hello');
    const end = await waitFor('the end of r3', () => page.end('r3'));
    assert.equal(end.type, 'chat/error');
    if (end.type !== 'chat/error') return;
    assert.match(end.error.title, /401/);
    assert.ok(end.error.actions.includes('setApiKey'), `actions: ${end.error.actions.join(', ')}`);
    assert.ok(!JSON.stringify(page.posted).includes('sk-wrong-key'), 'the key reached the webview');
  });

  it('the key never reaches the webview', async () => {
    send('r4', 'is my key safe');
    await waitFor('the end of r4', () => page.end('r4'));
    assert.ok(!JSON.stringify(page.posted).includes(gateway.validKey), 'the key was posted to the webview');
  });
  it('a request the host cannot accept (21 images) ends with an error naming the problem, so the panel is not left busy', async () => {
    const image = { name: 'x.png', mime: 'image/png', dataUrl: 'data:image/png;base64,iVBORw0KGgo=', bytes: 8 };
    page.fromPage({
      type: 'chat/send',
      requestId: 'r-many',
      text: 'look',
      images: Array.from({ length: 21 }, () => image),
      contexts: [],
    });
    await waitFor('the request to end', () => page.end('r-many'));
    const end = page.posted.find((m) => m.type === 'chat/error' && m.requestId === 'r-many');
    assert.equal(end?.type, 'chat/error');
    assert.match(end?.type === 'chat/error' ? end.error.detail : '', /images/);
    assert.equal(end?.type === 'chat/error' ? end.message : 'x', undefined, 'nothing was added to the conversation');
  });

  it('an export that cannot be written says so in the chat instead of failing silently', async () => {
    send('r1', 'something worth keeping');
    await waitFor('the answer', () => page.posted.some((m) => m.type === 'chat/done' && m.requestId === 'r1'));
    // No dialog can be answered here: the stand-in picks a file in a folder that refuses writes,
    // as a read-only folder does (a permission error cannot be made on disk when tests run as root).
    const window = vscode.window as { showSaveDialog: typeof vscode.window.showSaveDialog };
    const { showSaveDialog } = window;
    const folder = vscode.workspace.registerFileSystemProvider('gws-read-only', new ReadOnlyFolder());
    window.showSaveDialog = () => Promise.resolve(vscode.Uri.parse('gws-read-only:/read-only/notes.md'));
    try {
      page.fromPage({ type: 'history/export' });
      await waitFor('an error notice', () => page.posted.some((m) => m.type === 'chat/notice' && m.level === 'error'));
    } finally {
      window.showSaveDialog = showSaveDialog;
      folder.dispose();
    }
    const notice = page.posted.find((m) => m.type === 'chat/notice' && m.level === 'error');
    assert.match(notice?.type === 'chat/notice' ? notice.text : '', /EACCES: permission denied/);
  });

  it('a localhost or mailto link from an answer asks in a modal first; declined, nothing opens; accepted, it opens', async () => {
    // VS Code's own prompt skips these two; no dialog can be clicked here, so stand-ins answer it
    // and record what would have opened.
    const window = vscode.window as { showWarningMessage: (...a: unknown[]) => Thenable<unknown> };
    const env = vscode.env as { openExternal: (uri: vscode.Uri) => Thenable<boolean> };
    const { showWarningMessage } = window;
    const { openExternal } = env;
    const asked: { message: string; modal?: boolean; detail?: string }[] = [];
    const opened: string[] = [];
    let answer: 'Open' | undefined;
    window.showWarningMessage = (message: unknown, options: unknown) => {
      asked.push({ message: String(message), ...(options as vscode.MessageOptions) });
      return Promise.resolve(answer);
    };
    env.openExternal = (uri) => {
      opened.push(uri.toString(true));
      return Promise.resolve(true);
    };
    const settled = async (n: number) => waitFor(`${n} modal(s)`, () => asked.length >= n || undefined);
    try {
      page.fromPage({ type: 'link/open', href: 'http://localhost:3000/admin/delete?all=1' });
      await settled(1);
      page.fromPage({ type: 'link/open', href: 'mailto:boss@example.com?subject=resign' });
      await settled(2);
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(opened, [], 'a declined link was opened');
      assert.equal(asked[0]?.modal, true);
      assert.match(asked[0]?.message ?? '', /own machine or network/);
      assert.equal(asked[0]?.detail, 'http://localhost:3000/admin/delete?all=1');
      assert.match(asked[1]?.message ?? '', /mail link/);
      answer = 'Open';
      page.fromPage({ type: 'link/open', href: 'mailto:boss@example.com?subject=resign' });
      await waitFor('the accepted link to open', () => opened.length > 0 || undefined);
      assert.deepEqual(opened, ['mailto:boss@example.com?subject=resign']);
    } finally {
      window.showWarningMessage = showWarningMessage;
      env.openExternal = openExternal;
    }
  });

  it('conversations stored in workspace state by an earlier version move into files and stay in the history', async () => {
    const services = (await extension()).exports as Services;
    const state = services.context.workspaceState;
    const id = 'c-migrated-from-state';
    const conversation = {
      id,
      title: 'kept from before the update',
      createdAt: 1000,
      updatedAt: 1001,
      model: 'gw-chat',
      params: {},
      messages: [
        { id: 'u1', role: 'user', text: 'an old question', images: [], contexts: [], createdAt: 1000 },
        {
          id: 'a1',
          role: 'assistant',
          content: 'an old answer',
          status: 'done',
          requestedModel: 'gw-chat',
          createdAt: 1001,
        },
      ],
    };
    const key = `gatewayStudio.chat.conversation.${id}`;
    await state.update(key, { version: 1, conversation });
    const folder = join(services.context.storageUri?.fsPath ?? '', 'chat-conversations');
    const later = new ChatController(services);
    const view = new FakeWebview();
    const sub = later.attach(view as unknown as vscode.Webview);
    try {
      await waitFor('the record to leave workspace state', () => state.get(key) === undefined);
      const file = join(folder, `${key}.json`);
      assert.ok(existsSync(file), `no file ${file}`);
      assert.deepEqual(
        (JSON.parse(readFileSync(file, 'utf8')) as { conversation: unknown }).conversation,
        conversation,
      );
      view.fromPage({ type: 'webview/ready' });
      // A new chat first, so that opening it is what shows it (the view may start on it).
      view.fromPage({ type: 'chat/new' });
      view.fromPage({ type: 'history/list' });
      // Its index entry was never written (the index had already moved): the store finds the record.
      await waitFor('the history to list it', () =>
        view.posted.some((m) => m.type === 'history/list' && m.entries.some((e) => e.id === id)),
      );
      view.fromPage({ type: 'history/open', conversationId: id });
      await waitFor('the moved conversation to open', () =>
        view.posted.some((m) => m.type === 'chat/conversation' && m.conversation.id === id),
      );
      const shown = view.posted.filter((m) => m.type === 'chat/conversation').pop();
      assert.deepEqual(shown?.type === 'chat/conversation' ? shown.conversation.messages.map((m) => m.id) : [], [
        'u1',
        'a1',
      ]);
    } finally {
      sub.dispose();
      later.dispose();
    }
  });

  it('a long conversation from before (one record of 80 messages) moves to a file; its next turn stores a head and parts that reopen whole', async () => {
    const services = (await extension()).exports as Services;
    const state = services.context.workspaceState;
    const id = 'c-long-from-state';
    const key = `gatewayStudio.chat.conversation.${id}`;
    const messages = Array.from({ length: 80 }, (_, i) =>
      i % 2 === 0
        ? { id: `u${i}`, role: 'user', text: `question ${i}`, images: [], contexts: [], createdAt: 1000 + i }
        : {
            id: `a${i}`,
            role: 'assistant',
            content: `answer ${i}`,
            status: 'done',
            requestedModel: 'gw-chat',
            createdAt: 1000 + i,
          },
    );
    const conversation = {
      id,
      title: 'a long one',
      createdAt: 1000,
      updatedAt: 1079,
      model: 'gw-chat',
      params: {},
      messages,
    };
    await state.update(key, { version: 1, conversation });
    const folder = join(services.context.storageUri?.fsPath ?? '', 'chat-conversations');
    const open = async (view: FakeWebview) => {
      view.fromPage({ type: 'webview/ready' });
      view.fromPage({ type: 'chat/new' });
      view.fromPage({ type: 'history/open', conversationId: id });
      await waitFor('the long conversation to open', () =>
        view.posted.some((m) => m.type === 'chat/conversation' && m.conversation.id === id),
      );
      const shown = view.posted.filter((m) => m.type === 'chat/conversation').pop();
      return shown?.type === 'chat/conversation' ? shown.conversation.messages : [];
    };
    const first = new ChatController(services);
    const view = new FakeWebview();
    const sub = first.attach(view as unknown as vscode.Webview);
    try {
      await waitFor('the record to leave workspace state', () => state.get(key) === undefined);
      assert.equal((await open(view)).length, 80);
      view.fromPage({ type: 'chat/send', requestId: 'long1', text: 'one more', images: [], contexts: [] });
      assert.equal((await waitFor('the answer', () => view.end('long1'))).type, 'chat/done');
      const head = await waitFor('the head of parts', () => {
        const h = JSON.parse(readFileSync(join(folder, `${key}.json`), 'utf8')) as {
          version: number;
          parts?: { key: string; count: number }[];
        };
        return h.version === 3 ? h : undefined;
      });
      assert.deepEqual(
        head.parts?.map((p) => p.count),
        [32, 32, 18],
      );
      for (const p of head.parts ?? []) assert.ok(existsSync(join(folder, `${p.key}.json`)), `no part ${p.key}`);
    } finally {
      sub.dispose();
      first.dispose();
    }
    const later = new ChatController(services);
    const again = new FakeWebview();
    const sub2 = later.attach(again as unknown as vscode.Webview);
    try {
      const reopened = await open(again);
      assert.equal(reopened.length, 82);
      assert.deepEqual(
        reopened.slice(0, 80).map((m) => m.id),
        messages.map((m) => m.id),
      );
      assert.deepEqual(
        reopened.slice(80).map((m) => m.role),
        ['user', 'assistant'],
      );
    } finally {
      sub2.dispose();
      later.dispose();
    }
  });

  it('a selection added before any chat view exists (first "Ask about the selection") reaches the view once it is ready', async () => {
    const services = (await extension()).exports as Services;
    const first = new ChatController(services);
    const view = new FakeWebview();
    try {
      first.addContext({
        fileName: 'src/x.ts',
        language: 'typescript',
        text: 'return a - b;',
        startLine: 1,
        endLine: 1,
      });
      const sub = first.attach(view as unknown as vscode.Webview);
      view.fromPage({ type: 'webview/ready' });
      const at = view.posted.findIndex((m) => m.type === 'chat/context');
      const ctx = view.posted[at];
      assert.equal(ctx?.type === 'chat/context' && ctx.context.text, 'return a - b;');
      assert.ok(
        view.posted.findIndex((m) => m.type === 'chat/snapshot') < at,
        'after the snapshot, so it is not wiped',
      );
      sub.dispose();
    } finally {
      first.dispose();
    }
  });
});
