import * as path from 'node:path';
import * as vscode from 'vscode';
import { linkLeadsOut, realpathOrSelf } from '../files/insideWorkspace';

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

/**
 * Whether `uri` is a file that may hold secrets (../shared/sensitiveFiles) by its workspace name or
 * by where its links lead inside the workspace (`ref.png -> ../.env`): the readers that send a
 * file without showing it (video reference images) refuse those.
 */
export async function leadsToSecret(uri: vscode.Uri): Promise<boolean> {
  if (uri.scheme !== 'file') return false;
  // The list loads with the first such read: activation does not need it.
  const { isSecretPath } = await import('../shared/sensitiveFiles');
  if (isSecretPath(vscode.workspace.asRelativePath(uri, false))) return true;
  const real = await realpathOrSelf(uri.fsPath);
  for (const f of vscode.workspace.workspaceFolders ?? []) {
    if (f.uri.scheme !== 'file') continue;
    const rel = path.relative(await realpathOrSelf(f.uri.fsPath), real);
    if (!rel.startsWith('..') && !path.isAbsolute(rel) && isSecretPath(rel)) return true;
  }
  return false;
}
