/**
 * The checks between the chat page and the files it names (see chat/mentions/core/mentionRefs.ts): the
 * references the host issues, the question asked before a dropped or added file from outside the
 * workspace becomes a chip, and the check made again before a mention is read.
 */
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import type { MentionItem } from '../../../shared/protocol';
import { IssuedRefs, isUncReference, type RefOrigin } from '../core/mentionRefs';
import { isInside } from '../../tools/core/paths';

export class MentionGuard {
  private readonly issued = new IssuedRefs();

  /** Records the rows and chips the host hands to the page (only these are read later). */
  issue(items: readonly MentionItem[], origin: RefOrigin): void {
    for (const i of items) this.issue1(i.ref, origin);
  }

  issue1(ref: string, origin: RefOrigin): void {
    this.issued.issue(ref, origin);
  }

  /**
   * Why a mention must not be read, or undefined when it may. Mentions without a reference (the
   * selection, the terminal, the workspace's problems) name no file.
   */
  async refusal(item: MentionItem): Promise<string | undefined> {
    if (item.ref === '') return undefined;
    const origin = this.issued.origin(item.ref);
    if (origin === undefined)
      return vscode.l10n.t('Not read: this chat did not offer "{0}" (pick it with @ or drop it again).', item.label);
    // An MCP resource names a server's resource, not a file: offered by this chat is all it needs.
    if (item.kind === 'mcpResource') return undefined;
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(item.ref, true);
    } catch {
      return vscode.l10n.t('Not read: "{0}" is not a valid reference.', item.label);
    }
    if (isUncReference(item.ref, uri.scheme === 'file' ? uri.fsPath : undefined))
      return vscode.l10n.t('Not read: {0} is on a network share (UNC path).', item.label);
    if (origin === 'user') return undefined;
    if (!(await insideWorkspace(uri)))
      return vscode.l10n.t(
        'Not read: {0} is outside the workspace (or a symbolic link that leads out of it). Drop it or add it with Add File to Chat to be asked.',
        item.label,
      );
    return undefined;
  }

  /**
   * Splits files a drop or Add File to Chat gave into those inside the workspace and those the
   * user agreed to attach from outside it (asked once, modal); UNC paths are refused outright.
   */
  async admit(uris: readonly vscode.Uri[]): Promise<{ admitted: [vscode.Uri, RefOrigin][]; problems: string[] }> {
    const admitted: [vscode.Uri, RefOrigin][] = [];
    const outside: vscode.Uri[] = [];
    const problems: string[] = [];
    for (const uri of uris) {
      if (isUncReference(uri.toString(), uri.scheme === 'file' ? uri.fsPath : undefined))
        problems.push(vscode.l10n.t('{0} is on a network share (UNC path) and is not attached.', uri.fsPath));
      else if (await insideWorkspace(uri)) admitted.push([uri, 'listed']);
      else outside.push(uri);
    }
    if (outside.length === 0) return { admitted, problems };
    const attach = vscode.l10n.t('Attach');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Attach {0} file(s) from outside the workspace to the chat?', outside.length),
      {
        modal: true,
        detail: `${outside.map((u) => (u.scheme === 'file' ? u.fsPath : u.toString())).join('\n')}\n\n${vscode.l10n.t('Their content will be sent to the model.')}`,
      },
      attach,
    );
    for (const uri of outside) {
      if (answer === attach) admitted.push([uri, 'user']);
      else
        problems.push(
          vscode.l10n.t('{0} is outside the workspace and was not attached.', uri.fsPath || uri.toString()),
        );
    }
    return { admitted, problems };
  }
}

/** Inside a workspace folder, also after following symbolic links (a repository's link to ~/.ssh is not). */
export async function insideWorkspace(uri: vscode.Uri): Promise<boolean> {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return false;
  if (uri.scheme !== 'file' || folder.uri.scheme !== 'file') return true;
  const [real, realRoot] = await Promise.all([realpath(uri.fsPath), realpath(folder.uri.fsPath)]);
  // A missing file is inside as named: reading it fails on its own ("not found").
  if (real === undefined || realRoot === undefined) return true;
  return isInside(realRoot, real);
}

async function realpath(p: string): Promise<string | undefined> {
  try {
    return await fs.realpath(p);
  } catch {
    return undefined;
  }
}
