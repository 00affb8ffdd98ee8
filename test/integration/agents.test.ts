// The chat's agents in the real extension host (issue 37 item 4): a ChatController (the panel's
// class) on an in-memory webview, agent files in the test workspace, and the local gateway's
// recorded requests as the proof of what was offered and sent. Written to run with the others
// under test/host (the session lead runs that stage).
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../src/chat/vscode/controller';
import type { Services } from '../../src/platform/services';
import type { HostMessage } from '../../src/shared/protocol';
import { registerTools } from '../../src/chat/tools/vscode/register';
import { control, extension, gateway, keyStore, setSetting, waitFor, writeWorkspaceSettings } from './env';

class FakeWebview {
  readonly posted: HostMessage[] = [];
  private readonly emitter = new vscode.EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.emitter.event;
  postMessage(m: unknown): Thenable<boolean> {
    this.posted.push(m as HostMessage);
    return Promise.resolve(true);
  }
  fromPage(m: unknown): void {
    this.emitter.fire(m);
  }
  ended(requestId: string): boolean {
    return this.posted.some((m) => (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === requestId);
  }
  agentIds(): string[] | undefined {
    const list = this.posted.filter((m) => m.type === 'agents/list').at(-1);
    return list?.type === 'agents/list' ? list.agents.map((a) => a.id) : undefined;
  }
}

interface Recorded {
  path: string;
  body: { model: string; tools?: { function: { name: string } }[]; messages: { role: string; content: string }[] };
}

let services: Services;
let controller: ChatController | undefined;
let page: FakeWebview;
let attached: vscode.Disposable | undefined;
/** What the tools registration of one test added, disposed after it. */
let registered: vscode.Disposable[] = [];
let n = 0;

const folder = (): vscode.Uri => {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the host opens a workspace folder');
  return f.uri;
};
const abs = (rel: string) => path.join(folder().fsPath, ...rel.split('/'));

async function write(rel: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(abs(rel)), { recursive: true });
  await fs.writeFile(abs(rel), text);
}

function open(opts: { isTrusted?: () => boolean } = {}): void {
  controller = new ChatController(services, opts);
  // The tools as the chat's own registration gives them (src/chat/vscode/register.ts), with this
  // test's subscriptions: an agent's tool list narrows these.
  registered = [];
  const context = Object.create(services.context, { subscriptions: { value: registered } }) as vscode.ExtensionContext;
  registerTools({ ...services, context }, controller);
  page = new FakeWebview();
  attached = controller.attach(page as unknown as vscode.Webview);
  page.fromPage({ type: 'webview/ready' });
  page.fromPage({ type: 'chat/new' });
}

/** Sends `text` and returns the chat requests the gateway received for it. */
async function send(text: string): Promise<Recorded[]> {
  const requestId = `ag${++n}`;
  const before = ((await control('requests')) as Recorded[]).length;
  page.fromPage({ type: 'chat/send', requestId, text, images: [], contexts: [] });
  await waitFor(`the end of ${requestId}`, () => page.ended(requestId));
  return ((await control('requests')) as Recorded[]).slice(before).filter((r) => r.path === '/v1/chat/completions');
}
const offered = (r: Recorded | undefined) => (r?.body.tools ?? []).map((t) => t.function.name);

describe('chat agents', () => {
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
    for (const d of registered) d.dispose();
    await fs.rm(abs('.github/agents'), { recursive: true, force: true });
    await fs.rm(abs('.claude'), { recursive: true, force: true });
    await fs.rm(abs('agents-target.txt'), { force: true });
    await setSetting('agents.planModel', undefined);
  });
  after(async () => {
    await (await keyStore()).clear();
    await setSetting('chatModel', undefined);
  });

  it('agent files of both formats are listed after the built-ins, and picking one applies its tools and instructions', async () => {
    await write('.github/agents/reviewer.agent.md', '---\ntools: [read]\n---\nReview only.');
    await write('.claude/agents/helper.md', '---\nname: helper\ntools: Read, Bash\n---\nHelp.');
    open();
    const ids = await waitFor('the agents list', () => page.agentIds()?.includes('helper') && page.agentIds());
    assert.deepEqual(ids, ['agent', 'ask', 'plan', 'reviewer', 'helper']);
    page.fromPage({ type: 'agents/select', id: 'reviewer' });
    const [first] = await send('look at it');
    assert.deepEqual(offered(first), ['read_file', 'get_selection', 'get_diagnostics']);
    assert.match(first!.body.messages[0]!.content, /# Agent: reviewer[\s\S]*Review only\./);
    const sources = await controller!.agents.sources.list();
    assert.deepEqual(
      sources.map((s) => [s.name, s.state]),
      [
        ['reviewer', 'applies'],
        ['helper', 'available'],
      ],
    );
  });

  it('Plan: no write tool reaches the gateway, and a forced write is refused with nothing written', async () => {
    await write('agents-target.txt', 'before\n');
    open();
    page.fromPage({ type: 'agents/select', id: 'plan' });
    const script = JSON.stringify([
      { calls: [{ name: 'write_file', arguments: { path: 'agents-target.txt', content: 'after\n' } }] },
      { text: 'Plan: 1. change it.' },
    ]);
    const sent = await send(`change it #tools ${script}`);
    assert.ok(sent.length >= 2);
    for (const r of sent)
      for (const t of ['write_file', 'edit_file', 'run_command']) assert.ok(!offered(r).includes(t));
    assert.equal(await fs.readFile(abs('agents-target.txt'), 'utf8'), 'before\n');
  });

  it("hostile repo: a workspace's planModel setting is ignored; the user's own picks Plan's model", async () => {
    // As a cloned repository sets it: VS Code's API refuses this user-only setting in Workspace settings.
    await writeWorkspaceSettings({ 'gatewayStudio.agents.planModel': 'gw-reasoner' });
    try {
      open();
      page.fromPage({ type: 'agents/select', id: 'plan' });
      assert.equal((await send('plan'))[0]?.body.model, 'gw-chat');
      await setSetting('agents.planModel', 'gw-vision');
      assert.equal((await send('plan again'))[0]?.body.model, 'gw-vision');
    } finally {
      await writeWorkspaceSettings(undefined);
    }
  });

  it('hostile repo: an agent file linking outside the workspace or to a secret is not read, and its entry says why', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'gws-agent-out-'));
    await fs.writeFile(path.join(outside, 'evil.md'), '---\nname: evil\n---\nleaked-through-a-link');
    await fs.mkdir(abs('.github/agents'), { recursive: true });
    await fs.symlink(path.join(outside, 'evil.md'), abs('.github/agents/evil.agent.md'));
    await fs.writeFile(abs('.github/agents/.env'), 'API_KEY=sk-agent-env');
    await fs.symlink(abs('.github/agents/.env'), abs('.github/agents/env.agent.md'));
    try {
      open();
      const sources = await controller!.agents.sources.list();
      assert.deepEqual(
        sources.map((s) => [s.name, s.state]),
        [
          ['env', 'off'],
          ['evil', 'off'],
        ],
      );
      assert.match(sources[1]?.why ?? '', /outside the workspace/);
      assert.match(sources[0]?.why ?? '', /secrets/);
      const system = (await send('hello'))[0]!.body.messages[0]!.content;
      assert.ok(!system.includes('leaked-through-a-link') && !system.includes('sk-agent-env'));
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it('Restricted Mode: workspace agent files are off and say so', async () => {
    await write('.github/agents/reviewer.agent.md', '---\ntools: [edit]\n---\nx');
    open({ isTrusted: () => false });
    await waitFor('the agents list', () => page.agentIds());
    assert.deepEqual(page.agentIds(), ['agent', 'ask', 'plan']);
    const [source] = await controller!.agents.sources.list();
    assert.equal(source?.state, 'off');
    assert.match(source?.why ?? '', /Restricted Mode/);
  });

  it('a handoff switches the conversation to its agent and sends its prompt', async () => {
    open();
    page.fromPage({ type: 'agents/select', id: 'plan' });
    const before = ((await control('requests')) as Recorded[]).length;
    page.fromPage({ type: 'agents/handoff', requestId: 'h1', agent: 'agent', prompt: 'Implement the plan above.' });
    await waitFor('the handoff answer', () => page.ended('h1'));
    const [first] = ((await control('requests')) as Recorded[])
      .slice(before)
      .filter((r) => r.path === '/v1/chat/completions');
    assert.ok(offered(first).includes('edit_file'));
    // The editor state follows the prompt, after the conversation (issue 39: a cacheable prefix).
    assert.equal(
      String(first?.body.messages.at(-1)?.content).split('\n\n# Editor state')[0],
      'Implement the plan above.',
    );
  });
});
