import * as vscode from 'vscode';
import type { Routes } from '../../panel/core/hub';
import type * as Picker from './picker';
import type { MentionProvider } from './picker';

/**
 * The @-mentions as the chat uses them: the picker's queries, files dropped on the composer, and
 * the sources that resolve a message's mentions. The sources are loaded on first use from their
 * own file beside the bundle (`dist/mentions.js`, see esbuild.js): most sessions never mention
 * anything, and activation does not parse them. This file only imports their types.
 */
export class ChatMentions implements vscode.Disposable {
  private loaded: MentionProvider | undefined;

  get provider(): MentionProvider {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load is the point
    const { MentionProvider: Provider } = require('gws-mentions') as typeof Picker;
    return (this.loaded ??= new Provider());
  }

  readonly routes: Routes<'mentions/query' | 'mentions/drop'> = {
    'mentions/query': async (m, reply) =>
      reply({ type: 'mentions/results', queryId: m.queryId, items: await this.provider.query(m.query) }),
    'mentions/drop': async (m, reply) =>
      reply({ type: 'mentions/add', ...(await this.provider.fromUris(droppedUris(m.uris))) }),
  };

  dispose(): void {
    this.loaded?.dispose();
  }
}

/** The URIs of a drop that parse; the webview only passes on what the explorer put there. */
function droppedUris(list: string[]): vscode.Uri[] {
  const out: vscode.Uri[] = [];
  for (const s of list) {
    try {
      const uri = vscode.Uri.parse(s.trim(), true);
      if (uri.scheme === 'file' || uri.scheme === 'vscode-remote' || uri.scheme === 'vscode-userdata') out.push(uri);
    } catch {
      // Not a URI (a text drop): nothing to attach.
    }
  }
  return out;
}
