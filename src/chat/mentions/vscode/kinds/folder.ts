/** @folder: a folder's listing, one level deep. */
import * as vscode from 'vscode';
import type { ContextAttachment, MentionItem } from '../../../../shared/protocol';
import { formatFolderListing, makeAttachment } from '../../core/mentions';

export async function resolveFolder(item: MentionItem): Promise<ContextAttachment> {
  const uri = vscode.Uri.parse(item.ref, true);
  const entries = await vscode.workspace.fs.readDirectory(uri);
  return makeAttachment(
    { kind: 'folder', label: item.label, path: vscode.workspace.asRelativePath(uri, false) },
    formatFolderListing(entries.map(([name, type]) => ({ name, directory: (type & vscode.FileType.Directory) !== 0 }))),
  );
}
