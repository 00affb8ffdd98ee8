// Failover (issue 39) in the real host, against what a hostile repository can write: a failover
// list in the workspace's .vscode/settings.json and in the remote machine's settings (a dev
// container's `customizations.vscode.settings`) would send the conversation, and a profile's key,
// to the relay the repository names when the user's gateway refuses. Both are ignored: the 429
// reaches the user and the second instance never sees a request. The same list in the user's own
// settings does fail over (so the first test cannot pass for a wrong reason).
import * as assert from 'node:assert/strict';
import { mkdirSync, promises as fs, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../src/chat/vscode/controller';
import type { Services } from '../../src/platform/services';
import type { HostMessage } from '../../src/shared/protocol';
import { control, control2, extension, gateway, gateway2, keyStore, setSetting, waitFor } from './env';
import { FakeWebview } from './fakeWebview';

const RELAY = { id: 'relay', name: 'Relay', baseUrl: '', headers: {} as Record<string, string> };
const LIST = { 'gw-chat': ['default', 'relay'] };
const MARKER = 'gatewayStudio.models.overrides';

interface Recorded {
  route: string;
}

function machineSettingsFile(s: Services): string {
  return path.join(s.context.globalStorageUri.fsPath, '..', '..', '..', 'Machine', 'settings.json');
}

/** The two files' content before the suite wrote them, put back after each test. */
const saved = new Map<string, string | undefined>();

/** What the repository writes: the workspace's settings file and the remote machine's settings. */
async function writeRepositorySettings(s: Services, values: Record<string, unknown> | undefined): Promise<void> {
  const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode', 'settings.json');
  const machine = machineSettingsFile(s);
  if (!values) {
    for (const [f, text] of saved) {
      if (text === undefined) await fs.rm(f, { force: true });
      else await fs.writeFile(f, text);
    }
    saved.clear();
    return;
  }
  for (const f of [file, machine]) if (!saved.has(f)) saved.set(f, await fs.readFile(f, 'utf8').catch(() => undefined));
  // A window-scoped marker beside the list: VS Code drops an application setting from both
  // layers itself, so the marker is how the test knows the host read what the repository wrote.
  const marked = { ...values, [MARKER]: { 'gw-marker': {} } };
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(marked));
  mkdirSync(path.dirname(machine), { recursive: true });
  writeFileSync(machine, JSON.stringify(marked));
  await waitFor(
    "the repository's settings in the workspace and remote machine layers",
    () => {
      const i = vscode.workspace.getConfiguration('gatewayStudio').inspect('models.overrides') as
        { workspaceValue?: Record<string, unknown>; globalRemoteValue?: Record<string, unknown> } | undefined;
      return Promise.resolve(!!i?.workspaceValue?.['gw-marker'] && !!i.globalRemoteValue?.['gw-marker']);
    },
    20_000,
  );
}

describe('failover lists', () => {
  let s: Services;
  let controller: ChatController | undefined;
  let attached: vscode.Disposable | undefined;
  let page: FakeWebview;

  before(async () => {
    s = (await extension()).exports as Services;
    RELAY.baseUrl = gateway2.url;
    RELAY.headers = { [gateway2.header.name]: gateway2.header.value };
    await setSetting('baseUrl', gateway.url);
    await setSetting('chatModel', 'gw-chat');
  });
  beforeEach(async () => {
    await control('reset');
    await control2('reset');
    await (await keyStore()).set(gateway.validKey);
    await setSetting('profiles', [RELAY]);
    await s.profiles.setKey('relay', gateway2.validKey);
    // The user's gateway refuses every chat request with a 429 (after the client's retries).
    await control('fault', { match: { path: '/v1/chat/completions' }, status: 429, times: -1 });
    controller = new ChatController(s);
    page = new FakeWebview();
    attached = controller.attach(page as unknown as vscode.Webview);
    page.fromPage({ type: 'webview/ready' });
    page.fromPage({ type: 'chat/new' });
  });
  afterEach(async () => {
    attached?.dispose();
    controller?.dispose();
    await writeRepositorySettings(s, undefined);
    await setSetting('failover', undefined);
    await s.context.globalState.update('gatewayStudio.failover.coolDowns.v1', undefined);
    await s.profiles.clearKey('relay');
    await setSetting('profiles', undefined);
    await control('reset');
    await (await keyStore()).clear();
  });
  after(async () => {
    await setSetting('chatModel', undefined);
  });

  const send = async (requestId: string) => {
    page.fromPage({ type: 'chat/send', requestId, text: 'hello', images: [], contexts: [] });
    return waitFor('the end of the answer', () => Promise.resolve(page.end(requestId)), 60_000);
  };
  const relayChats = async () =>
    ((await control2('requests')) as Recorded[]).filter((r) => r.route === '/v1/chat/completions');

  it("a repository's failover list (workspace and remote machine settings) sends nothing to the relay it names", async () => {
    await writeRepositorySettings(s, { 'gatewayStudio.failover': LIST });
    const end = await send('r1');
    assert.equal(end.type, 'chat/error', JSON.stringify(end));
    assert.match(JSON.stringify(end), /429/);
    assert.deepEqual(await relayChats(), [], 'the relay the repository named got the conversation');
    const state = s.context.globalState.get('gatewayStudio.failover.coolDowns.v1');
    assert.equal(state, undefined, 'no cool-down: nothing failed over');
  });

  it('the same list in the user’s own settings answers from the relay and says so', async () => {
    await setSetting('failover', LIST);
    const end = await send('r2');
    assert.equal(end.type, 'chat/done', JSON.stringify(end));
    const answer = end.message;
    assert.equal(answer?.content, 'Echo: hello');
    assert.match(answer?.notices?.join('\n') ?? '', /^Answered by Relay: Default said: HTTP 429/m);
    assert.equal((await relayChats()).length, 1);
    const done = page.posted.filter((m): m is Extract<HostMessage, { type: 'chat/done' }> => m.type === 'chat/done');
    assert.equal(done.length, 1);
  });
});
