import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { control, extension, gateway, keyStore, setSetting, waitFor } from './env';

/** The walkthrough part of the extension's exports (src/platform/walkthrough.ts). */
interface WalkthroughLike {
  id: string;
  context(step: 'apiKeySet' | 'connectionOk' | 'videoStarted'): boolean | undefined;
  openOnFirstStart(force?: boolean): Promise<boolean>;
  resetFirstStart(): Thenable<void>;
}
interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string; altText?: string };
  completionEvents?: string[];
}

async function walkthrough(): Promise<WalkthroughLike> {
  const exp = (await extension()).exports as { walkthrough?: WalkthroughLike } | undefined;
  assert.ok(exp?.walkthrough, 'activate() exports `walkthrough`');
  return exp.walkthrough;
}

describe('Get Started walkthrough', () => {
  afterEach(async () => {
    await (await keyStore()).clear();
    await setSetting('baseUrl', gateway.url);
  });

  it('is contributed with its five steps, each with its text, existing media and a completion event', async () => {
    const ext = await extension();
    const pkg = ext.packageJSON as { contributes: { walkthroughs?: Array<{ id: string; steps: Step[] }> } };
    const w = pkg.contributes.walkthroughs?.find((x) => x.id === 'gettingStarted');
    assert.ok(w, 'contributes.walkthroughs has gettingStarted');
    assert.deepEqual(
      w.steps.map((s) => s.id),
      ['setApiKey', 'checkConnection', 'pickModel', 'openChat', 'generateVideo'],
    );
    for (const s of w.steps) {
      assert.ok((s.completionEvents ?? []).length > 0, `${s.id} completes by itself`);
      const md = s.media.markdown;
      assert.ok(md, `${s.id} has markdown media`);
      await vscode.workspace.fs.stat(vscode.Uri.joinPath(ext.extensionUri, md));
      // The host resolved the %keys% from package.nls.json.
      assert.doesNotMatch(`${s.title} ${s.description}`, /%walkthrough\./, `${s.id}'s texts are localised`);
    }
    const text = (id: string) => w.steps.find((s) => s.id === id)?.description ?? '';
    assert.match(text('setApiKey'), /web-login password is not an API key/);
    assert.match(text('checkConnection'), /stops at \/v1/);
    assert.match(text('checkConnection'), /never includes \/chat\/completions/);
    // The steps' buttons run commands that exist.
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const s of w.steps)
      for (const m of s.description.matchAll(/\(command:([\w.]+)/g))
        assert.ok(registered.has(m[1] ?? ''), `${s.id} links to ${m[1]}, which is registered`);
  });

  it('storing an API key sets the context key the first step completes on; clearing it unsets it', async () => {
    const w = await walkthrough();
    const keys = await keyStore();
    await keys.clear();
    await waitFor('apiKeySet false', () => w.context('apiKeySet') === false);
    await keys.set(gateway.validKey);
    await waitFor('apiKeySet true after the key was stored', () => w.context('apiKeySet') === true);
    await keys.clear();
    await waitFor('apiKeySet false after Clear API Key', () => w.context('apiKeySet') === false);
  });

  it('a successful Check Connection sets the context key of the connection step (a failed one does not)', async () => {
    const w = await walkthrough();
    await control('reset');
    await setSetting('baseUrl', gateway.url);
    // A failed check first: the step must not tick for a 401.
    await (await keyStore()).set('sk-wrong-key-0000');
    const failed = await vscode.commands.executeCommand<{ ok: boolean }>('gatewayStudio.checkConnection');
    assert.equal(failed.ok, false);
    assert.notEqual(w.context('connectionOk'), true, 'a 401 does not complete the step');
    await (await keyStore()).set(gateway.validKey);
    const ok = await vscode.commands.executeCommand<{ ok: boolean }>('gatewayStudio.checkConnection');
    assert.equal(ok.ok, true);
    assert.equal(w.context('connectionOk'), true);
  });

  it('opens once on the first start (forced here: tests never open it by themselves)', async () => {
    const w = await walkthrough();
    await w.resetFirstStart();
    assert.equal(await w.openOnFirstStart(), false, 'not opened in the test host unless asked');
    const before = vscode.window.tabGroups.all.flatMap((g) => g.tabs).length;
    assert.equal(await w.openOnFirstStart(true), true);
    const tab = await waitFor('the walkthrough editor', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => /Welcome|Walkthrough|Get started with Gateway Studio/i.test(t.label)),
    );
    assert.ok(vscode.window.tabGroups.all.flatMap((g) => g.tabs).length > before);
    assert.equal(await w.openOnFirstStart(true), false, 'the second start does not open it again');
    await vscode.window.tabGroups.close(tab);
  });
});
