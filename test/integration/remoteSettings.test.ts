// What a dev container's repository can write: the remote machine's settings. code-server reads
// them from <user-data-dir>/Machine/settings.json, as VS Code Server does in a container, a
// Codespace or over SSH; `devcontainer.json`'s customizations.vscode.settings land there. In the
// real host: an address from that layer gets no keyed request before the user allows its origin
// (and the dialog names that place), the user-only settings ignore that layer, and the user's own
// `network.allowInsecureHttp` works in this remote kind of window.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AddressPlace } from '../../src/platform/gatewayOrigins';
import type { Services } from '../../src/platform/services';
import { useCollectorChat } from './collector';
import { gateway, keyStore, setSetting, waitFor } from './env';

/** `<user-data-dir>/Machine/settings.json`, found from the extension's global storage folder. */
function machineSettingsFile(s: Services): string {
  // globalStorageUri is <user-data-dir>/User/globalStorage/<extension id>.
  return join(s.context.globalStorageUri.fsPath, '..', '..', '..', 'Machine', 'settings.json');
}

/** Writes the remote machine's settings and waits until the host sees `probe` in that layer. */
async function writeMachineSettings(s: Services, values: Record<string, unknown>, probe: string): Promise<void> {
  const file = machineSettingsFile(s);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(values, null, 2));
  const want = JSON.stringify(values[`gatewayStudio.${probe}`]);
  await waitFor(
    `gatewayStudio.${probe} in the remote machine's layer`,
    () => {
      const i = vscode.workspace.getConfiguration('gatewayStudio').inspect(probe) as
        { globalRemoteValue?: unknown } | undefined;
      return JSON.stringify(i?.globalRemoteValue) === want;
    },
    20_000,
  );
}

describe("a dev container's settings (the remote machine's layer)", () => {
  const chat = useCollectorChat();
  afterEach(async () => {
    await writeMachineSettings(chat.services, { 'gatewayStudio.chatModel': 'gw-chat' }, 'chatModel');
    await setSetting('network.allowInsecureHttp', undefined);
    await setSetting('baseUrl', gateway.url);
    await chat.services.origins.forget();
    await (await keyStore()).clear();
  });
  after(() => {
    writeFileSync(machineSettingsFile(chat.services), '{}');
  });

  it('its gateway address gets no keyed request until the user allows it, and the dialog names the remote settings', async () => {
    const asked: [string, string, AddressPlace][] = [];
    let answer: (a: 'allow' | 'refuse') => void = () => undefined;
    chat.services.origins.prompt = (origin, setting, place) => {
      asked.push([origin, setting, place]);
      return new Promise((resolve) => (answer = resolve));
    };
    await writeMachineSettings(chat.services, { 'gatewayStudio.baseUrl': chat.collector.url }, 'baseUrl');
    chat.page.fromPage({ type: 'chat/send', requestId: 'r1', text: 'hello', images: [], contexts: [] });
    await waitFor('the question about the origin', () => asked.length > 0);
    const origin = new URL(chat.collector.url).origin;
    assert.deepEqual(asked[0], [origin, 'gatewayStudio.baseUrl', 'remote']);
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(chat.keyed(), [], 'a keyed request reached the dev container’s server before the answer');
    answer('refuse');
    const end = await waitFor('the end of r1', () => chat.page.end('r1'), 30_000);
    assert.equal(end.type, 'chat/error');
    const shown = end.type === 'chat/error' ? `${end.error.title} ${end.error.detail}` : '';
    assert.match(shown, /remote machine's settings/, shown);
    assert.match(shown, /devcontainer\.json/, shown);
    assert.deepEqual(chat.collector.seen, [], 'the refused server received a request');
    // Once allowed (after Forget), the key goes there: the gate is the only thing that held it back.
    await chat.services.origins.forget();
    chat.services.origins.prompt = () => Promise.resolve('allow');
    chat.page.fromPage({ type: 'chat/send', requestId: 'r2', text: 'again', images: [], contexts: [] });
    const done = await waitFor('the end of r2', () => chat.page.end('r2'), 30_000);
    assert.equal(done.type, 'chat/done', JSON.stringify(done));
    assert.ok(chat.keyed().some((r) => r.url.endsWith('/chat/completions')));
  });

  it('its profiles, spend limit, completion and insecure-HTTP values are not read as the user’s', async () => {
    await setSetting('completions.enabled', false);
    await writeMachineSettings(
      chat.services,
      {
        'gatewayStudio.chatModel': 'gw-chat',
        'gatewayStudio.profiles': [{ name: 'container', baseUrl: chat.collector.url }],
        'gatewayStudio.spend.dailyLimit': 123,
        'gatewayStudio.completions.enabled': true,
        'gatewayStudio.completions.debounceMs': 0,
        'gatewayStudio.network.allowInsecureHttp': true,
        'gatewayStudio.utilityModel': 'container-expensive-model',
      },
      'chatModel',
    );
    const { settingLayers, userValue } = await import('../../src/platform/userSettings');
    assert.ok(
      !chat.services.profiles.list().profiles.some((p) => p.name === 'container'),
      JSON.stringify(chat.services.profiles.list().profiles.map((p) => p.name)),
    );
    assert.equal(userValue('spend.dailyLimit'), undefined);
    assert.equal(userValue('network.allowInsecureHttp'), undefined);
    assert.notEqual(userValue('utilityModel'), 'container-expensive-model');
    const { completionSettingsFromLayers } = await import('../../src/completion/inline/core/settings');
    const completion = completionSettingsFromLayers((k) => settingLayers(k));
    assert.equal(completion.enabled, false, 'the container turned completion on');
    assert.ok(completion.debounceMs >= 250, `debounce ${completion.debounceMs} ms`);
    await setSetting('completions.enabled', undefined);
  });

  it("the user's own allowInsecureHttp takes effect in this remote window, and a plain-http gateway gets the key", async () => {
    // 0.0.0.0 is not loopback to the address check, and Linux connects it to this machine.
    const plain = chat.collector.url.replace('127.0.0.1', '0.0.0.0');
    await setSetting('baseUrl', plain);
    chat.page.fromPage({ type: 'chat/send', requestId: 'h1', text: 'hello', images: [], contexts: [] });
    const refused = await waitFor('the end of h1', () => chat.page.end('h1'), 30_000);
    assert.equal(refused.type, 'chat/error');
    const said = refused.type === 'chat/error' ? `${refused.error.title} ${refused.error.detail}` : '';
    assert.match(said, /allowInsecureHttp/, said);
    assert.deepEqual(chat.collector.seen, []);
    // As the Settings editor's User tab does. While the setting was machine-scoped, this wrote
    // the remote machine's file (the layer a dev container writes) and a value in the user's own
    // settings.json was dropped in this kind of window.
    await setSetting('network.allowInsecureHttp', true);
    const layers = vscode.workspace.getConfiguration('gatewayStudio').inspect('network.allowInsecureHttp') as {
      globalLocalValue?: unknown;
      globalRemoteValue?: unknown;
    };
    assert.equal(layers.globalLocalValue, true, JSON.stringify(layers));
    assert.equal(layers.globalRemoteValue, undefined, JSON.stringify(layers));
    chat.page.fromPage({ type: 'chat/send', requestId: 'h2', text: 'again', images: [], contexts: [] });
    const done = await waitFor('the end of h2', () => chat.page.end('h2'), 30_000);
    assert.equal(done.type, 'chat/done', JSON.stringify(done));
    assert.ok(
      chat.keyed().some((r) => r.url.endsWith('/chat/completions') && r.authorization === `Bearer ${gateway.validKey}`),
    );
  });
});
