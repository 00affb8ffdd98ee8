import * as vscode from 'vscode';
import type { NeighbourFile } from '../core/context';
import type { Eligibility } from './eligibility';

const REMEMBERED = 20;

/**
 * Recently edited documents (most recent first, with where they were edited) and the open ones,
 * for the snippets of a completion's context. Only documents of the same language that pass the
 * same eligibility check as the one being completed are offered.
 */
export class Neighbours implements vscode.Disposable {
  private readonly recent = new Map<string, { doc: vscode.TextDocument; offset: number }>();
  private readonly sub = vscode.workspace.onDidChangeTextDocument((e) => {
    const change = e.contentChanges[0];
    if (!change) return;
    const key = e.document.uri.toString();
    this.recent.delete(key);
    this.recent.set(key, { doc: e.document, offset: change.rangeOffset });
    if (this.recent.size > REMEMBERED) this.recent.delete(this.recent.keys().next().value!);
  });
  private readonly closed = vscode.workspace.onDidCloseTextDocument((d) => this.recent.delete(d.uri.toString()));

  constructor(private readonly eligibility: Eligibility) {}

  async of(doc: vscode.TextDocument, maxBytes: number): Promise<NeighbourFile[]> {
    const seen = new Set<string>([doc.uri.toString()]);
    const candidates: { doc: vscode.TextDocument; offset?: number }[] = [...this.recent.values()].reverse();
    for (const d of vscode.workspace.textDocuments) candidates.push({ doc: d });
    const out: NeighbourFile[] = [];
    for (const c of candidates) {
      const key = c.doc.uri.toString();
      if (seen.has(key) || c.doc.languageId !== doc.languageId || c.doc.isClosed) continue;
      seen.add(key);
      if ((await this.eligibility.check(c.doc, maxBytes)) !== undefined) continue;
      out.push({
        path: vscode.workspace.asRelativePath(c.doc.uri, false),
        text: c.doc.getText(),
        ...(c.offset !== undefined ? { focus: c.offset } : {}),
      });
      if (out.length >= 3) break;
    }
    return out;
  }

  dispose(): void {
    this.sub.dispose();
    this.closed.dispose();
    this.recent.clear();
  }
}
