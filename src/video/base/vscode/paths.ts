import * as vscode from 'vscode';

/** A file as the user and the model read it: relative to its workspace folder when inside one. */
export function relPath(file: string): string {
  return vscode.workspace.asRelativePath(vscode.Uri.file(file), false);
}
