import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extension, setSetting } from './env';

describe('settings', () => {
  afterEach(async () => {
    await setSetting('chatModel', undefined);
    await setSetting('chat.temperature', undefined);
  });

  it('the manifest defaults are what VS Code reports before the user sets anything', async () => {
    await extension();
    const c = vscode.workspace.getConfiguration('gatewayStudio');
    assert.equal(c.get('videoModel'), 'vendor-image-video');
    assert.equal(c.get('chat.stream'), true);
    assert.equal(c.get('video.outputFolder'), 'videos');
    assert.equal(c.get('network.maxRetries'), 2);
    assert.equal(c.get('chat.temperature'), null);
  });

  it('a changed setting fires a configuration event for gatewayStudio and is read back', async () => {
    await extension();
    const seen: string[] = [];
    const sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('gatewayStudio.chatModel')) seen.push('chatModel');
    });
    try {
      await setSetting('chatModel', 'gw-reasoner');
      await setSetting('chat.temperature', 0.3);
      assert.deepEqual(seen, ['chatModel']);
      const c = vscode.workspace.getConfiguration('gatewayStudio');
      assert.equal(c.get('chatModel'), 'gw-reasoner');
      assert.equal(c.get('chat.temperature'), 0.3);
    } finally {
      sub.dispose();
    }
  });
});
