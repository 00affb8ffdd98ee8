// A cloned repository's .vscode/settings.json points gatewayStudio.baseUrl at its own server. In
// the real host: that server gets no request carrying the key before the user answers, none after
// they refuse (and the chat says why), and the key only once they allow the origin.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ChatController } from '../../src/chat/vscode/controller';
import type { OriginPrompt } from '../../src/platform/gatewayOrigins';
import type { Services } from '../../src/platform/services';
import { startCollector } from './collector';
import { control, extension, gateway, keyStore, setSetting, waitFor } from './env';
import { FakeWebview } from './fakeWebview';

async function setWorkspaceBaseUrl(value: string | undefined): Promise<void> {
  const changed = new Promise<void>((resolve) => {
    const sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('gatewayStudio.baseUrl')) {
        sub.dispose();
        resolve();
      }
    });
  });
  await vscode.workspace
    .getConfiguration('gatewayStudio')
    .update('baseUrl', value, vscode.ConfigurationTarget.Workspace);
  await Promise.race([changed, new Promise((r) => setTimeout(r, 10_000))]);
}

describe('a workspace that sets the gateway address', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let services: Services;
  let original: OriginPrompt;
  let controller: ChatController | undefined;
  let page: FakeWebview;
  let attached: vscode.Disposable | undefined;
  const keyed = () => collector.seen.filter((r) => r.authorization !== undefined);

  before(async () => {
    services = (await extension()).exports as Services;
    original = services.origins.prompt;
    collector = await startCollector();
    await setSetting('baseUrl', gateway.url);
    await setSetting('chatModel', 'gw-chat');
  });
  beforeEach(async () => {
    await control('reset');
    await (await keyStore()).set(gateway.validKey);
    await services.origins.forget();
    collector.seen.length = 0;
    controller = new ChatController(services);
    page = new FakeWebview();
    attached = controller.attach(page as unknown as vscode.Webview);
    page.fromPage({ type: 'webview/ready' });
    page.fromPage({ type: 'chat/new' });
  });
  afterEach(async () => {
    attached?.dispose();
    controller?.dispose();
    services.origins.prompt = original;
    await setWorkspaceBaseUrl(undefined);
    await services.origins.forget();
    await (await keyStore()).clear();
  });
  after(async () => {
    await setSetting('chatModel', undefined);
    collector.server.close();
  });

  it('nothing keyed reaches its server while the question is open, nor after the user refuses; the chat says why', async () => {
    const asked: string[] = [];
    let answer: (a: 'refuse') => void = () => undefined;
    services.origins.prompt = (origin) => {
      asked.push(origin);
      return new Promise((resolve) => (answer = resolve));
    };
    await setWorkspaceBaseUrl(collector.url);
    page.fromPage({ type: 'chat/send', requestId: 'o1', text: 'hello', images: [], contexts: [] });
    await waitFor('the question about the origin', () => asked.length > 0);
    const origin = new URL(collector.url).origin;
    assert.equal(asked[0], origin);
    // Whatever else runs meanwhile (the model list, the status bar) waits for the same answer.
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(keyed(), [], 'a keyed request reached the workspace server before the answer');
    answer('refuse');
    const end = await waitFor('the end of o1', () => page.end('o1'), 30_000);
    assert.equal(end.type, 'chat/error');
    const shown = end.type === 'chat/error' ? `${end.error.title} ${end.error.detail}` : '';
    assert.match(shown, new RegExp(`${origin.replace(/[.:/]/g, '\\$&')}.*did not allow`), shown);
    // Asked once; the refusal is remembered, so a second message neither asks nor sends.
    page.fromPage({ type: 'chat/send', requestId: 'o2', text: 'again', images: [], contexts: [] });
    await waitFor('the end of o2', () => page.end('o2'), 30_000);
    assert.equal(asked.length, 1, `asked ${asked.length} times`);
    assert.deepEqual(collector.seen, [], 'the refused server received a request');
    assert.ok(!JSON.stringify(page.posted).includes(gateway.validKey), 'the key reached the webview');
  });

  it('once the user allows the origin, requests go there with the key, and nothing asks again', async () => {
    const asked: string[] = [];
    services.origins.prompt = (origin) => {
      asked.push(origin);
      return Promise.resolve('allow');
    };
    await setWorkspaceBaseUrl(collector.url);
    page.fromPage({ type: 'chat/send', requestId: 'o3', text: 'hello', images: [], contexts: [] });
    const end = await waitFor('the end of o3', () => page.end('o3'), 30_000);
    assert.equal(end.type, 'chat/done', JSON.stringify(end));
    assert.ok(
      keyed().some((r) => r.url.endsWith('/chat/completions') && r.authorization === `Bearer ${gateway.validKey}`),
      `requests seen: ${JSON.stringify(collector.seen.map((r) => r.url))}`,
    );
    page.fromPage({ type: 'chat/send', requestId: 'o4', text: 'again', images: [], contexts: [] });
    await waitFor('the end of o4', () => page.end('o4'), 30_000);
    assert.equal(asked.length, 1, `asked ${asked.length} times`);
  });

  it('the user value alone is used as before: nothing is asked', async () => {
    let asked = 0;
    services.origins.prompt = () => {
      asked++;
      return Promise.resolve(undefined);
    };
    page.fromPage({ type: 'chat/send', requestId: 'o5', text: 'hello', images: [], contexts: [] });
    const end = await waitFor('the end of o5', () => page.end('o5'), 30_000);
    assert.equal(end.type, 'chat/done', JSON.stringify(end));
    assert.equal(asked, 0);
    assert.deepEqual(collector.seen, []);
  });
});
