import * as vscode from 'vscode';
import { linkLeadsOut } from '../api/insideWorkspace';

/**
 * Where `uri` really leads when it is a workspace file whose symbolic link points outside the
 * workspace folders; undefined when it may be read (not a link out, or not a disk file). A check
 * that fails counts as leading out: an unreadable target is not worth the risk. The one VS Code
 * side of `linkLeadsOut` for the rules, the mentions and the video reference images.
 */
export async function linkOutOfWorkspace(uri: vscode.Uri): Promise<string | undefined> {
  if (uri.scheme !== 'file') return undefined;
  const roots = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
  return linkLeadsOut(uri.fsPath, roots).catch(() => uri.fsPath);
}
