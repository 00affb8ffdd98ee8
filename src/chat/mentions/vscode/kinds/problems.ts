/** @problems: VS Code's diagnostics, of the whole workspace or of one file. */
import * as vscode from 'vscode';
import type { ContextAttachment, MentionItem } from '../../../../shared/protocol';
import { formatProblems, makeAttachment, type ProblemEntry } from '../../core/mentions';
import { basename } from '../mentionFiles';

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

/** The picker's rows: the workspace's problems, and the current file's when it is a file. */
export function problemsRows(ed: vscode.TextEditor | undefined): MentionItem[] {
  const rows: MentionItem[] = [
    { kind: 'problems', label: vscode.l10n.t('Problems'), detail: vscode.l10n.t('the whole workspace'), ref: '' },
  ];
  if (ed && ed.document.uri.scheme === 'file') {
    rows.push({
      kind: 'problems',
      label: vscode.l10n.t('Problems in {0}', basename(ed.document.uri.path)),
      detail: vscode.workspace.asRelativePath(ed.document.uri),
      ref: ed.document.uri.toString(),
    });
  }
  return rows;
}

export function resolveProblems(item: MentionItem): ContextAttachment {
  const only = item.ref ? vscode.Uri.parse(item.ref, true) : undefined;
  const all: [vscode.Uri, readonly vscode.Diagnostic[]][] = only
    ? [[only, vscode.languages.getDiagnostics(only)]]
    : vscode.languages.getDiagnostics();
  const entries: ProblemEntry[] = all.flatMap(([uri, diags]) =>
    diags.map((d) => ({
      path: vscode.workspace.asRelativePath(uri, false),
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      severity: SEVERITY[d.severity],
      message: d.message,
      ...(d.source ? { source: d.source } : {}),
    })),
  );
  return makeAttachment(
    { kind: 'problems', label: item.label, ...(only ? { path: vscode.workspace.asRelativePath(only, false) } : {}) },
    formatProblems(entries),
  );
}
