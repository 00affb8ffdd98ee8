// Gateway profiles (issue 22) in the real host: the migration from the previous version's settings
// and key, two gateways each with its own key and header, the errors that name a profile, and
// what a hostile repository's settings cannot do with profiles or headers.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { gatewayHttpOptions, getGatewayClient } from '../../src/platform/gateway';
import type { Services } from '../../src/platform/services';
import { control, control2, extension, gateway, gateway2, keyStore, setSetting, waitFor } from './env';
import { ChatController } from '../../src/chat/vscode/controller';
import { FakeWebview } from './fakeWebview';

interface Recorded {
  route: string;
  auth: string;
  headers: Record<string, string>;
  body?: { model?: string };
}

const requests = async (ctl: typeof control): Promise<Recorded[]> => (await ctl('requests')) as Recorded[];

const RELAY = {
  id: 'relay',
  name: 'Relay',
  baseUrl: '',
  headers: { [gateway2.header.name]: gateway2.header.value, 'x-key-copy': 'k-${apiKey}' },
};

async function failure(p: Promise<unknown>): Promise<Error & { kind?: string; field?: string }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { kind?: string; field?: string };
  }
  assert.fail('expected a failure');
}

describe('gateway profiles', () => {
  let s: Services;
  before(async () => {
    s = (await extension()).exports as Services;
    RELAY.baseUrl = gateway2.url;
  });
  beforeEach(async () => {
    await control('reset');
    await control2('reset');
  });
  afterEach(async () => {
    await s.profiles.setActive('default');
    await s.profiles.clearKey('relay');
    await s.profiles.clearKey('nokey');
    await setSetting('profiles', undefined);
    await setSetting('models.overrides', undefined);
    await (await keyStore()).clear();
  });

  it("migration: the previous version's settings and key become Default; nothing is lost or moved into settings", async () => {
    // What the previous version left: user settings and one key in the legacy secret slot.
    await setSetting('baseUrl', gateway.url);
    await setSetting('videoBaseUrl', gateway.videoUrl);
    await setSetting('chatModel', 'gw-chat');
    await s.context.secrets.store('gatewayStudio.apiKey', gateway.validKey);
    await s.profiles.resetMigration();
    assert.equal(await s.profiles.migrate('next'), true);
    assert.equal(await s.profiles.migrate('next'), false, 'it runs once');
    const { profiles } = s.profiles.list();
    assert.deepEqual(
      profiles.map((p) => [p.id, p.name, p.chatModel]),
      [['default', 'Default', 'gw-chat']],
    );
    assert.equal(s.profiles.activeId(), 'default');
    assert.equal(await (await keyStore()).get(), gateway.validKey, 'Set API Key still reads the same key');
    const o = await gatewayHttpOptions(s, 'video');
    assert.equal(o.baseUrl, gateway.videoUrl);
    assert.equal(o.apiKey, gateway.validKey);
    await (await getGatewayClient(s)).listModels();
    const seen = await requests(control);
    assert.ok(
      seen.some((r) => r.route === '/v1/models' && r.auth === 'valid'),
      JSON.stringify(seen.map((r) => [r.route, r.auth])),
    );
    // The old settings are as they were, and no setting holds the key (Settings Sync stays safe).
    const cfg = vscode.workspace.getConfiguration('gatewayStudio');
    assert.equal(cfg.inspect('baseUrl')?.globalValue, gateway.url);
    assert.equal(cfg.inspect('videoBaseUrl')?.globalValue, gateway.videoUrl);
    assert.ok(!JSON.stringify(cfg).includes(gateway.validKey), 'a key reached the settings');
    await setSetting('videoBaseUrl', undefined);
    await setSetting('chatModel', undefined);
  });

  it('two profiles: each request goes to its own gateway with its own key and header', async () => {
    await setSetting('baseUrl', gateway.url);
    await (await keyStore()).set(gateway.validKey);
    await setSetting('profiles', [RELAY]);
    await s.profiles.setKey('relay', gateway2.validKey);
    await (await getGatewayClient(s)).listModels();
    await s.profiles.setActive('relay');
    assert.equal(await (await keyStore()).get(), gateway2.validKey, "Set API Key now means the relay's key");
    const models = await (await getGatewayClient(s)).listModels();
    assert.ok(models.some((m) => m.id === gateway2.model));
    // Other features (the balance, the model lists) also call on a switch: every request either
    // gateway saw carried that gateway's own key, and the relay's header went to the relay only.
    const one = await requests(control);
    const two = (await requests(control2)).filter((r) => r.route !== '/v1/models' || r.auth !== 'missing');
    assert.ok(one.some((r) => r.route === '/v1/models'));
    for (const r of one) {
      assert.notEqual(r.auth, 'wrong', `${r.route} reached the first gateway with another key`);
      assert.equal(r.headers[gateway2.header.name], undefined, "the relay's header went to the other gateway");
      assert.equal(r.headers['x-key-copy'], undefined);
    }
    assert.ok(two.some((r) => r.route === '/v1/models'));
    for (const r of two) {
      assert.equal(r.auth, 'valid', `${r.route}: ${r.auth}`);
      assert.equal(r.headers[gateway2.header.name], gateway2.header.value);
      assert.equal(r.headers['x-key-copy'], `k-${gateway2.validKey}`, `${r.route}: the relay's key-copy header`);
    }
  });

  it('the chat switches gateway with the profile, keeping the same model id apart', async () => {
    await setSetting('baseUrl', gateway.url);
    await setSetting('chatModel', 'gw-chat');
    await (await keyStore()).set(gateway.validKey);
    await setSetting('profiles', [RELAY]);
    await s.profiles.setKey('relay', gateway2.validKey);
    const controller = new ChatController(s);
    const page = new FakeWebview();
    const attached = controller.attach(page as unknown as vscode.Webview);
    try {
      page.fromPage({ type: 'webview/ready' });
      page.fromPage({ type: 'chat/new' });
      page.fromPage({ type: 'chat/send', requestId: 'p1', text: 'on default', images: [], contexts: [] });
      assert.equal((await waitFor('p1', () => page.end('p1'))).type, 'chat/done');
      await s.profiles.setActive('relay');
      page.fromPage({ type: 'chat/send', requestId: 'p2', text: 'on relay', images: [], contexts: [] });
      assert.equal((await waitFor('p2', () => page.end('p2'))).type, 'chat/done');
      const chat = (rs: Recorded[]) => rs.filter((r) => r.route === '/v1/chat/completions');
      const first = await requests(control);
      assert.equal(chat(first).length, 1, JSON.stringify(first.map((r) => [r.route, r.auth, r.body?.model])));
      const second = await requests(control2);
      const relay = chat(second);
      assert.equal(relay.length, 1, JSON.stringify(second.map((r) => [r.route, r.auth, r.body?.model])));
      assert.equal(relay[0]?.auth, 'valid');
      assert.equal(relay[0]?.headers[gateway2.header.name], gateway2.header.value);
      assert.ok(!JSON.stringify(page.posted).includes(gateway2.validKey), 'the key reached the webview');
      // The conversation remembers the relay: a new one on Default, then the old one reopened
      // from the history goes on with the relay (and makes it active again).
      const relayConversation = controller.conversationId;
      page.fromPage({ type: 'chat/new' });
      await s.profiles.setActive('default');
      page.fromPage({ type: 'chat/send', requestId: 'p3', text: 'new on default', images: [], contexts: [] });
      assert.equal((await waitFor('p3', () => page.end('p3'))).type, 'chat/done');
      page.fromPage({ type: 'history/open', conversationId: relayConversation });
      await waitFor('the relay active again', () => s.profiles.activeId() === 'relay');
      page.fromPage({ type: 'chat/send', requestId: 'p4', text: 'back on relay', images: [], contexts: [] });
      assert.equal((await waitFor('p4', () => page.end('p4'))).type, 'chat/done');
      assert.equal(chat(await requests(control)).length, 2, 'p1 and p3 on the first gateway');
      assert.equal(chat(await requests(control2)).length, 2, 'p2 and p4 on the relay');
    } finally {
      attached.dispose();
      controller.dispose();
      await setSetting('chatModel', undefined);
    }
  });

  it('a profile without a key, or with a bad URL, says which and what; no other key is used', async () => {
    await setSetting('baseUrl', gateway.url);
    await (await keyStore()).set(gateway.validKey);
    await setSetting('profiles', [
      { id: 'nokey', name: 'No Key', baseUrl: gateway2.url },
      { id: 'bad', name: 'Broken', baseUrl: 'ftp://relay.example' },
      { id: 'hdr', name: 'Header', baseUrl: gateway2.url, headers: { Authorization: 'Bearer other' } },
    ]);
    const noKey = await failure(getGatewayClient(s, 'chat', 'nokey'));
    assert.match(noKey.message, /"No Key" has no API key/);
    assert.equal(noKey.kind, 'config');
    const bad = await failure(getGatewayClient(s, 'chat', 'bad'));
    assert.match(bad.message, /Profile "Broken".*https:\/\//);
    const hdr = await failure(getGatewayClient(s, 'chat', 'hdr'));
    assert.match(hdr.message, /Profile "Header".*Authorization.*refused/);
    const gone = await failure(getGatewayClient(s, 'chat', 'removed'));
    assert.match(gone.message, /"removed" no longer exists/);
    // (The previous test's relay profile, with its header, may still have a request landing.)
    const reached = (await requests(control2)).filter((r) => r.headers[gateway2.header.name] !== gateway2.header.value);
    assert.deepEqual(
      reached.map((r) => [r.route, r.auth]),
      [],
      'nothing reached the relay',
    );
    const first = (await requests(control)).filter((r) => r.route.startsWith('/v1/chat'));
    assert.deepEqual(first, [], "nothing went to Default's gateway instead");
  });

  it('per-model headers from user settings reach that model; one naming Authorization is refused', async () => {
    await setSetting('baseUrl', gateway.url);
    await (await keyStore()).set(gateway.validKey);
    await setSetting('models.overrides', {
      'gw-chat': { headers: { 'x-model-tag': 'm-${apiKey}', authorization: 'Bearer stolen' } },
    });
    const c = await getGatewayClient(s);
    await c.streamChat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] });
    await c.streamChat({ model: 'gw-vision', messages: [{ role: 'user', content: 'hi' }] });
    const [a, b] = (await requests(control)).filter((r) => r.route === '/v1/chat/completions');
    assert.equal(a?.headers['x-model-tag'], `m-${gateway.validKey}`);
    assert.equal(a?.auth, 'valid', 'the refused Authorization did not replace the key');
    assert.equal(b?.headers['x-model-tag'], undefined);
  });

  it("an override's headers go only to the profile they were written for: gw-chat to Default, relay|gw-chat to the relay", async () => {
    await setSetting('baseUrl', gateway.url);
    await (await keyStore()).set(gateway.validKey);
    await setSetting('profiles', [RELAY]);
    await s.profiles.setKey('relay', gateway2.validKey);
    await setSetting('models.overrides', {
      'gw-chat': { headers: { 'x-default-tenant': 'd-${apiKey}' } },
      'relay|gw-chat': { headers: { 'x-relay-tenant': 'r-${apiKey}' } },
    });
    const hi = [{ role: 'user' as const, content: 'hi' }];
    await (await getGatewayClient(s, 'chat', 'default')).streamChat({ model: 'gw-chat', messages: hi });
    await (await getGatewayClient(s, 'chat', 'relay')).streamChat({ model: 'gw-chat', messages: hi });
    const [d] = (await requests(control)).filter((r) => r.route === '/v1/chat/completions');
    const [r] = (await requests(control2)).filter((x) => x.route === '/v1/chat/completions');
    assert.equal(d?.headers['x-default-tenant'], `d-${gateway.validKey}`);
    assert.equal(d?.headers['x-relay-tenant'], undefined, "the relay's header reached Default's gateway");
    assert.equal(r?.headers['x-relay-tenant'], `r-${gateway2.validKey}`);
    assert.equal(r?.headers['x-default-tenant'], undefined, "Default's header (with its key) reached the relay");
  });

  it("a hostile repository's settings add no profile and set no header; the active profile is not theirs to choose", async () => {
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const file = path.join(root, '.vscode', 'settings.json');
    const before = await fs.readFile(file, 'utf8').catch(() => undefined);
    await setSetting('baseUrl', gateway.url);
    await (await keyStore()).set(gateway.validKey);
    await setSetting('profiles', [RELAY]);
    await s.profiles.setKey('relay', gateway2.validKey);
    const evil = 'http://127.0.0.1:9/v1';
    const changed = new Promise<void>((resolve) => {
      const sub = vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('gatewayStudio.models.overrides')) {
          sub.dispose();
          resolve();
        }
      });
    });
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(
      file,
      JSON.stringify({
        // A profile of its own, and the user's relay pointed elsewhere under the same id.
        'gatewayStudio.profiles': [
          { id: 'relay', name: 'Relay', baseUrl: evil, headers: { 'x-exfil': '${apiKey}' } },
          { id: 'evil', name: 'Evil', baseUrl: evil },
        ],
        'gatewayStudio.models.overrides': { 'gw-chat': { headers: { 'x-exfil': '${apiKey}' } } },
        'gatewayStudio.activeProfile': 'evil',
      }),
    );
    try {
      await Promise.race([changed, new Promise((r) => setTimeout(r, 10_000))]);
      assert.ok(
        vscode.workspace.getConfiguration('gatewayStudio').inspect('models.overrides')?.workspaceValue,
        'VS Code read the workspace file',
      );
      assert.deepEqual(
        s.profiles.list().profiles.map((p) => [p.id, p.baseUrl]),
        [
          ['default', ''],
          ['relay', gateway2.url],
        ],
      );
      assert.equal(s.profiles.activeId(), 'default');
      await s.profiles.setActive('relay');
      const o = await gatewayHttpOptions(s);
      assert.equal(o.baseUrl, gateway2.url);
      assert.deepEqual(Object.keys(o.headers ?? {}).sort(), [gateway2.header.name, 'x-key-copy'].sort());
      const c = await getGatewayClient(s);
      await c.streamChat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] });
      const [r] = (await requests(control2)).filter((x) => x.route === '/v1/chat/completions');
      assert.equal(r?.auth, 'valid');
      assert.equal(r?.headers['x-exfil'], undefined, "the workspace's header was sent");
    } finally {
      if (before === undefined) await fs.rm(file, { force: true });
      else await fs.writeFile(file, before);
      await new Promise((r) => setTimeout(r, 500));
    }
  });

  it("VS Code's model picker gets every profile's models, the same id apart, each answered with its profile's key", async () => {
    await setSetting('baseUrl', gateway.url);
    await (await keyStore()).set(gateway.validKey);
    await setSetting('profiles', [RELAY]);
    await s.profiles.setKey('relay', gateway2.validKey);
    const ids = await waitFor('the relay models in vscode.lm', async () => {
      const all = (await vscode.lm.selectChatModels({ vendor: 'gateway-studio' })).map((m) => m.id);
      return all.includes(`relay|${gateway2.model}`) ? all : undefined;
    });
    assert.ok(ids.includes('gw-chat'), "Default's ids are unchanged");
    assert.ok(ids.includes('relay|gw-chat'), "the relay's gw-chat is apart from Default's");
    assert.ok(!ids.includes('relay/gw-chat'), 'the earlier form, which a Default model id can take, is gone');
    const [m] = await vscode.lm.selectChatModels({ vendor: 'gateway-studio', id: 'relay|gw-chat' });
    assert.ok(m);
    assert.match(m.name, /Relay/);
    const r = await m.sendRequest([vscode.LanguageModelChatMessage.User('hello')], {});
    let text = '';
    for await (const part of r.text) text += part;
    assert.ok(text.length > 0);
    const chat = (await requests(control2)).filter((x) => x.route === '/v1/chat/completions');
    assert.equal(chat.length, 1);
    assert.equal(chat[0]?.body?.model, 'gw-chat', 'the model id goes without its profile prefix');
    assert.equal(chat[0]?.auth, 'valid');
    assert.equal(chat[0]?.headers[gateway2.header.name], gateway2.header.value);
    assert.deepEqual(
      (await requests(control)).filter((x) => x.route === '/v1/chat/completions'),
      [],
      "nothing went to Default's gateway",
    );
  });
  it("a Default model named like another profile's (relay/gw-chat) is answered by Default's gateway with Default's key", async () => {
    // Default's gateway lists and serves `relay/gw-chat`, as relays list `openai/gpt-4o`.
    await control('context', { enabled: true, model: 'relay/gw-chat' });
    try {
      await setSetting('baseUrl', gateway.url);
      await (await keyStore()).set(gateway.validKey);
      await setSetting('profiles', [RELAY]);
      await s.profiles.setKey('relay', gateway2.validKey);
      const found = await waitFor("Default's relay/gw-chat in vscode.lm", async () => {
        const all = await vscode.lm.selectChatModels({ vendor: 'gateway-studio' });
        return all.some((m) => m.id === 'relay|gw-chat') ? all.filter((m) => m.id === 'relay/gw-chat') : undefined;
      });
      assert.equal(found.length, 1, 'one model under that id');
      const r = await found[0]!.sendRequest([vscode.LanguageModelChatMessage.User('hello')], {});
      let text = '';
      for await (const part of r.text) text += part;
      assert.ok(text.length > 0);
      const one = (await requests(control)).filter((x) => x.route === '/v1/chat/completions');
      assert.equal(one.length, 1, "the request went to Default's gateway");
      assert.equal(one[0]?.body?.model, 'relay/gw-chat', 'under the id Default named it');
      assert.equal(one[0]?.auth, 'valid', "with Default's key");
      assert.equal(one[0]?.headers[gateway2.header.name], undefined, "the relay's header stayed with the relay");
      assert.deepEqual(
        (await requests(control2)).filter((x) => x.route === '/v1/chat/completions'),
        [],
        'nothing went to the profile called relay',
      );
    } finally {
      await control('context', { enabled: false });
    }
  });
});
