/** @file and open editors: a file's text as the user sees it (unsaved edits included). */
import * as vscode from 'vscode';
import type { ContextAttachment, MentionItem } from '../../../../shared/protocol';
import { makeAttachment, noteOnly } from '../../core/mentions';
import { languageOf } from '../mentionFiles';

/** The picker's rows for the open text editors' tabs, each file once. */
export function editorRows(): MentionItem[] {
  const rows: MentionItem[] = [];
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    if (!(tab.input instanceof vscode.TabInputText)) continue;
    const uri = tab.input.uri;
    if (rows.some((e) => e.ref === uri.toString())) continue;
    rows.push({
      kind: 'editor',
      label: vscode.workspace.asRelativePath(uri),
      detail: vscode.l10n.t('open editor'),
      ref: uri.toString(),
    });
  }
  return rows;
}

export async function resolveFile(item: MentionItem): Promise<ContextAttachment> {
  const uri = vscode.Uri.parse(item.ref, true);
  const path = vscode.workspace.asRelativePath(uri, false);
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (doc) return makeAttachment({ kind: item.kind, label: item.label, path, language: doc.languageId }, doc.getText());
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.subarray(0, 8000).includes(0))
    return noteOnly(item, vscode.l10n.t('A binary file: its content is not attached.'), path);
  return makeAttachment(
    { kind: item.kind, label: item.label, path, language: languageOf(uri) },
    new TextDecoder().decode(bytes),
  );
}
