import * as vscode from 'vscode';
import type { Routes } from '../../conversation/core/routes';
import type { ExtraMentions, MentionProvider } from './picker';

/**
 * The @-mentions as the chat uses them: the picker's queries, files dropped on the composer, and
 * the sources that resolve a message's mentions. The sources are imported on first use, so they
 * are a chunk of their own (see esbuild.js): most sessions never mention anything, and activation
 * does not parse them. This file only imports their types.
 */
export class ChatMentions implements vscode.Disposable {
  private loading: Promise<MentionProvider> | undefined;

  constructor(private readonly extra?: ExtraMentions) {}

  /** The sources, loaded on the first call. */
  get provider(): Promise<MentionProvider> {
    return (this.loading ??= import('./picker').then(({ MentionProvider: Provider }) => new Provider(this.extra)));
  }

  readonly routes: Routes<'mentions/query' | 'mentions/drop'> = {
    'mentions/query': async (m, reply) =>
      reply({ type: 'mentions/results', queryId: m.queryId, items: await (await this.provider).query(m.query) }),
    'mentions/drop': async (m, reply) =>
      reply({ type: 'mentions/add', ...(await (await this.provider).fromUris(droppedUris(m.uris))) }),
  };

  dispose(): void {
    // A load still under way is disposed when it lands.
    void this.loading?.then((p) => p.dispose());
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
