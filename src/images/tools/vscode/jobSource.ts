/**
 * The images a tool call saved, as the chat's card follows them (media jobs of kind `image`): the
 * key is the saved file's path, the card shows it through a webview URI of its folder. Only an
 * image file's folder is ever offered to the page, whatever a stored key says.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MediaJobSource } from '../../../contracts/featureTools';
import { SAVED_IMAGE } from '../core/toolSchemas';

export function imageJobSource(): MediaJobSource {
  const folders = new Set<string>();
  return {
    kind: 'image',
    // A saved image does not change: the card is described once.
    watch: (key) => {
      if (path.isAbsolute(key) && SAVED_IMAGE.test(key)) folders.add(path.dirname(key));
      return { dispose: () => undefined };
    },
    describe: async (key, asWebviewUri) => (await import('./imageCard')).describeImage(key, asWebviewUri),
    resourceRoots: () => [...folders],
    act: async (key, action) => {
      if (!path.isAbsolute(key) || !SAVED_IMAGE.test(key)) return;
      const uri = vscode.Uri.file(key);
      if (action === 'open') await vscode.commands.executeCommand('vscode.open', uri);
      else if (action === 'reveal') await vscode.commands.executeCommand('revealInExplorer', uri);
      else if (action === 'openExternal') await vscode.env.openExternal(uri);
    },
  };
}
