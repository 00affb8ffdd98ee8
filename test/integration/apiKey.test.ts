import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { keyStore } from './env';

describe('API key commands (SecretStorage)', () => {
  afterEach(async () => {
    await (await keyStore()).clear();
  });

  it('a key stored through the extension is read back from secret storage and never lands in settings', async () => {
    const keys = await keyStore();
    await keys.set('sk-integration-1234567890');
    assert.equal(await keys.get(), 'sk-integration-1234567890');
    const all = JSON.stringify(vscode.workspace.getConfiguration('gatewayStudio'));
    assert.ok(!all.includes('sk-integration-1234567890'), 'the key appeared in the settings object');
  });

  it('Clear API Key removes the stored key', async () => {
    const keys = await keyStore();
    await keys.set('sk-to-be-cleared');
    await vscode.commands.executeCommand('gatewayStudio.clearApiKey');
    assert.equal(await keys.get(), undefined);
  });

  it('Set API Key dismissed with Escape keeps the previous key and reports false', async () => {
    const keys = await keyStore();
    await keys.set('sk-previous');
    let settled = false;
    const result = Promise.resolve(vscode.commands.executeCommand<boolean>('gatewayStudio.setApiKey')).finally(
      () => (settled = true),
    );
    // The input box opens asynchronously (slowly on a loaded machine), and closing it before it is
    // shown closes nothing: keep pressing Escape until the command has returned.
    const deadline = Date.now() + 30_000;
    while (!settled && Date.now() < deadline) {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await Promise.race([result, new Promise((r) => setTimeout(r, 300))]);
    }
    assert.ok(settled, 'Set API Key did not return within 30 s of pressing Escape');
    assert.equal(await result, false);
    assert.equal(await keys.get(), 'sk-previous');
  });

  it('the secret storage change event reaches the extension when the key is cleared', async () => {
    const keys = await keyStore();
    await keys.set('sk-watch-me');
    const ext = vscode.extensions.getExtension('gateway-studio.gateway-studio');
    const store = (ext?.exports as { keys?: { onDidChange?: vscode.Event<void> } } | undefined)?.keys;
    assert.ok(store?.onDidChange, 'the key store exposes onDidChange');
    const fired = new Promise<void>((resolve) => {
      const sub = store.onDidChange?.(() => {
        sub?.dispose();
        resolve();
      });
    });
    await vscode.commands.executeCommand('gatewayStudio.clearApiKey');
    await Promise.race([
      fired,
      new Promise((_, reject) => setTimeout(() => reject(new Error('no onDidChange within 10 s')), 10_000)),
    ]);
  });
});
