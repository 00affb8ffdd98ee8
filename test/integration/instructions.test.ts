// Instructions files in the real extension host (issue 37 item 1): a scoped `.instructions.md`
// applies when its file is mentioned and its chip says why, CLAUDE.md is sent like AGENTS.md, a
// nested CLAUDE.md that links out of the workspace is not read, and a frontmatter that cannot be
// read is a warning with its line while the chat goes on. A ChatController on an in-memory webview,
// real files in the test workspace, the local gateway's recorded requests as the proof.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../src/chat/vscode/controller';
import type { Services } from '../../src/platform/services';
import type { HostMessage, MentionItem } from '../../src/shared/protocol';
import { control, extension, gateway, keyStore, setSetting, waitFor } from './env';
import { FakeWebview } from './fakeWebview';

interface Recorded {
  path: string;
  body: { messages: { role: string; content: string }[] };
}
type RulesMessage = Extract<HostMessage, { type: 'prompt/rules' }>;

let services: Services;
let controller: ChatController | undefined;
let page: FakeWebview;
let attached: vscode.Disposable | undefined;
let n = 0;

function folder(): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the host opens a workspace folder');
  return f.uri;
}

async function write(rel: string, text: string): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(folder(), ...rel.split('/'));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

async function remove(rel: string): Promise<void> {
  await vscode.workspace.fs
    .delete(vscode.Uri.joinPath(folder(), ...rel.split('/')), { recursive: true })
    .then(undefined, () => undefined);
}

function rules(): RulesMessage[] {
  return page.posted.filter((m): m is RulesMessage => m.type === 'prompt/rules');
}

function open(): void {
  // No user-level folders: the machine's own ~/.claude/CLAUDE.md must not change what is sent.
  controller = new ChatController(services, { userPlaces: {} });
  page = new FakeWebview();
  attached = controller.attach(page as unknown as vscode.Webview);
  page.fromPage({ type: 'webview/ready' });
  page.fromPage({ type: 'chat/new' });
}

/** Sends `text` and returns the system message of the request the gateway received for it. */
async function systemSent(text = 'hello', mentions?: MentionItem[]): Promise<string> {
  const requestId = `in${++n}`;
  const before = ((await control('requests')) as Recorded[]).length;
  page.fromPage({ type: 'chat/send', requestId, text, images: [], contexts: [], ...(mentions ? { mentions } : {}) });
  await waitFor(`the end of ${requestId}`, () => page.end(requestId));
  assert.equal(page.end(requestId)?.type, 'chat/done', 'the chat goes on');
  const chats = ((await control('requests')) as Recorded[])
    .slice(before)
    .filter((r) => r.path === '/v1/chat/completions');
  assert.equal(chats.length, 1, 'one chat request');
  return chats[0]!.body.messages[0]!.content;
}

describe('instructions files', () => {
  before(async () => {
    services = (await extension()).exports as Services;
    await setSetting('baseUrl', gateway.url);
    await setSetting('chatModel', 'gw-chat');
  });
  beforeEach(async () => {
    await control('reset');
    await (await keyStore()).set(gateway.validKey);
  });
  afterEach(async () => {
    attached?.dispose();
    controller?.dispose();
    attached = undefined;
    controller = undefined;
    await control('clear');
    await remove('.github/instructions');
    await remove('CLAUDE.md');
    await remove('in-scoped');
  });
  after(async () => {
    await (await keyStore()).clear();
    await setSetting('chatModel', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a scoped .instructions.md applies when its file is mentioned, and its chip says why', async () => {
    await write(
      '.github/instructions/api.instructions.md',
      "---\nname: 'API rules'\ndescription: 'For the API package'\napplyTo: 'in-scoped/api/**/*.ts'\n---\nValidate every input.\n",
    );
    const file = await write('in-scoped/api/users.ts', 'export {};\n');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    open();
    // Not mentioned, not open, not read: not sent.
    assert.ok(!(await systemSent()).includes('Validate every input.'));

    await controller!.addFiles([file]);
    const system = await systemSent('#say ok', [
      { kind: 'file', label: 'in-scoped/api/users.ts', ref: file.toString() },
    ]);
    assert.ok(
      system.includes('## .github/instructions/api.instructions.md (for files matching in-scoped/api/**/*.ts)'),
      system,
    );
    assert.ok(system.includes('Validate every input.') && !system.includes('applyTo:'), system);
    const chip = await waitFor('the scoped chip', () =>
      rules()
        .at(-1)
        ?.rules.find((r) => r.id === '.github/instructions/api.instructions.md'),
    );
    assert.equal(chip.kind, 'instructions');
    assert.match(chip.why ?? '', /in-scoped\/api\/users\.ts/);
    // For the rest of the conversation.
    assert.ok((await systemSent('and again')).includes('Validate every input.'));
  });

  it('CLAUDE.md is sent like AGENTS.md; a nested CLAUDE.md that links out of the workspace is not read', async () => {
    await write('CLAUDE.md', 'Claude root rule.');
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'gws-claude-out-'));
    await fs.writeFile(path.join(outside, 'secret.md'), 'LEAKED-THROUGH-NESTED-CLAUDE');
    const file = await write('in-scoped/pkg/a.ts', 'export {};\n');
    await fs.symlink(path.join(outside, 'secret.md'), path.join(folder().fsPath, 'in-scoped', 'pkg', 'CLAUDE.md'));
    try {
      open();
      await controller!.addFiles([file]);
      const system = await systemSent('#say ok', [{ kind: 'file', label: 'in-scoped/pkg/a.ts', ref: file.toString() }]);
      assert.ok(system.includes('## CLAUDE.md') && system.includes('Claude root rule.'), system);
      assert.ok(!system.includes('LEAKED-THROUGH-NESTED-CLAUDE'), system);
      await waitFor('the link warning', () =>
        rules()
          .at(-1)
          ?.warnings.some((w) => w.includes('in-scoped/pkg/CLAUDE.md') && /symbolic link/.test(w)),
      );
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it('a frontmatter that cannot be read is a warning with its line, and the chat goes on', async () => {
    await write('.github/instructions/broken.instructions.md', "---\napplyTo: '**\nname: [oops\n---\nNever sent.\n");
    open();
    const msg = await waitFor('the parse warning', () =>
      rules().find((m) => m.warnings.some((w) => w.includes('broken.instructions.md') && /line \d+/.test(w))),
    );
    assert.ok(!msg.rules.some((r) => r.id.endsWith('broken.instructions.md')));
    assert.ok(!(await systemSent()).includes('Never sent.'));
  });
});
