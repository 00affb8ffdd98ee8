import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, extension } from './env';

interface ContributedCommand {
  command: string;
}

describe('activation', () => {
  it('the extension is present and activates without error', async () => {
    const ext = await extension();
    assert.equal(ext.isActive, true);
    assert.equal(ext.id, EXTENSION_ID);
  });

  it('every command contributed in package.json is registered after activation', async () => {
    const ext = await extension();
    const pkg = ext.packageJSON as { contributes?: { commands?: ContributedCommand[] } };
    const contributed = (pkg.contributes?.commands ?? []).map((c) => c.command);
    assert.ok(contributed.length >= 5, `expected the manifest's commands, found ${contributed.length}`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('Show Log runs without error', async () => {
    await extension();
    await vscode.commands.executeCommand('gatewayStudio.showLog');
  });
});
