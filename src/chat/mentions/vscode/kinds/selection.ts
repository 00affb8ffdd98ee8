/** @selection: the text selected in the editor the user last worked in. */
import * as vscode from 'vscode';
import type { ContextAttachment, MentionItem } from '../../../../shared/protocol';
import { makeAttachment, noteOnly } from '../../core/mentions';

/** The picker's row, offered only while something is selected. */
export function selectionRow(ed: vscode.TextEditor | undefined): MentionItem | undefined {
  if (!ed || ed.selection.isEmpty) return undefined;
  const s = ed.selection;
  return {
    kind: 'selection',
    label: vscode.l10n.t('Selection'),
    detail: `${vscode.workspace.asRelativePath(ed.document.uri)}:${s.start.line + 1}-${s.end.line + 1}`,
    ref: '',
  };
}

/** The selection as it is when the message is sent. */
export function resolveSelection(item: MentionItem, ed: vscode.TextEditor | undefined): ContextAttachment {
  if (!ed || ed.selection.isEmpty)
    return noteOnly(item, vscode.l10n.t('No text was selected when the message was sent.'));
  const s = ed.selection;
  const path = vscode.workspace.asRelativePath(ed.document.uri, false);
  return makeAttachment(
    {
      kind: 'selection',
      label: path,
      path,
      startLine: s.start.line + 1,
      endLine: s.end.line + 1,
      language: ed.document.languageId,
    },
    ed.document.getText(s),
  );
}
