// A cloned repository's .vscode/settings.json points gatewayStudio.baseUrl at its own server. In
// the real host: that server gets no request carrying the key before the user answers, none after
// they refuse (and the chat says why), and the key only once they allow the origin.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useCollectorChat } from './collector';
import { gateway, keyStore, waitFor } from './env';

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
  const chat = useCollectorChat();
  afterEach(async () => {
    await setWorkspaceBaseUrl(undefined);
    await chat.services.origins.forget();
    await (await keyStore()).clear();
  });

  it('nothing keyed reaches its server while the question is open, nor after the user refuses; the chat says why', async () => {
    const asked: string[] = [];
    let answer: (a: 'refuse') => void = () => undefined;
    chat.services.origins.prompt = (origin) => {
      asked.push(origin);
      return new Promise((resolve) => (answer = resolve));
    };
    await setWorkspaceBaseUrl(chat.collector.url);
    chat.page.fromPage({ type: 'chat/send', requestId: 'o1', text: 'hello', images: [], contexts: [] });
    await waitFor('the question about the origin', () => asked.length > 0);
    const origin = new URL(chat.collector.url).origin;
    assert.equal(asked[0], origin);
    // Whatever else runs meanwhile (the model list, the status bar) waits for the same answer.
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(chat.keyed(), [], 'a keyed request reached the workspace server before the answer');
    answer('refuse');
    const end = await waitFor('the end of o1', () => chat.page.end('o1'), 30_000);
    assert.equal(end.type, 'chat/error');
    const shown = end.type === 'chat/error' ? `${end.error.title} ${end.error.detail}` : '';
    assert.match(shown, new RegExp(`${origin.replace(/[.:/]/g, '\\$&')}.*did not allow`), shown);
    // Asked once; the refusal is remembered, so a second message neither asks nor sends.
    chat.page.fromPage({ type: 'chat/send', requestId: 'o2', text: 'again', images: [], contexts: [] });
    await waitFor('the end of o2', () => chat.page.end('o2'), 30_000);
    assert.equal(asked.length, 1, `asked ${asked.length} times`);
    assert.deepEqual(chat.collector.seen, [], 'the refused server received a request');
    assert.ok(!JSON.stringify(chat.page.posted).includes(gateway.validKey), 'the key reached the webview');
  });

  it('once the user allows the origin, requests go there with the key, and nothing asks again', async () => {
    const asked: string[] = [];
    chat.services.origins.prompt = (origin) => {
      asked.push(origin);
      return Promise.resolve('allow');
    };
    await setWorkspaceBaseUrl(chat.collector.url);
    chat.page.fromPage({ type: 'chat/send', requestId: 'o3', text: 'hello', images: [], contexts: [] });
    const end = await waitFor('the end of o3', () => chat.page.end('o3'), 30_000);
    assert.equal(end.type, 'chat/done', JSON.stringify(end));
    assert.ok(
      chat.keyed().some((r) => r.url.endsWith('/chat/completions') && r.authorization === `Bearer ${gateway.validKey}`),
      `requests seen: ${JSON.stringify(chat.collector.seen.map((r) => r.url))}`,
    );
    chat.page.fromPage({ type: 'chat/send', requestId: 'o4', text: 'again', images: [], contexts: [] });
    await waitFor('the end of o4', () => chat.page.end('o4'), 30_000);
    assert.equal(asked.length, 1, `asked ${asked.length} times`);
  });

  it('the user value alone is used as before: nothing is asked', async () => {
    let asked = 0;
    chat.services.origins.prompt = () => {
      asked++;
      return Promise.resolve(undefined);
    };
    chat.page.fromPage({ type: 'chat/send', requestId: 'o5', text: 'hello', images: [], contexts: [] });
    const end = await waitFor('the end of o5', () => chat.page.end('o5'), 30_000);
    assert.equal(end.type, 'chat/done', JSON.stringify(end));
    assert.equal(asked, 0);
    assert.deepEqual(chat.collector.seen, []);
  });
});
