import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DiagnosticInfo, FileChange, SelectionInfo, ToolHost } from '../core/host';
import { runShellCommand, type CommandOptions, type CommandResult } from '../core/command';
import { hasRemoteSchema, isJsonName } from '../core/protectedFiles';
import type { WorkspaceRoot } from '../core/paths';
import { ToolError } from '../core/runner';
import { activeEditors } from '../../../platform/activeEditor';
import { readSettings } from '../../../platform/settings';

/** URI scheme of the read-only "proposed change" documents shown on the right of the diff. */
export const PROPOSAL_SCHEME = 'gateway-studio-proposal';

/**
 * The built-in tools' access to VS Code: workspace folders, open editors (unsaved text wins over
 * the disk), the diff view of a proposed change, undoable workspace edits, a terminal that mirrors
 * command output, the selection and the diagnostics.
 */
export class VscodeToolHost implements ToolHost, vscode.Disposable {
  private readonly proposals = new Map<string, string>();
  private readonly disposables: vscode.Disposable[] = [];
  private terminal: MirrorTerminal | undefined;

  constructor() {
    const changed = new vscode.EventEmitter<vscode.Uri>();
    this.disposables.push(
      changed,
      vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, {
        onDidChange: changed.event,
        provideTextDocumentContent: (uri) => this.proposals.get(uri.toString()) ?? '',
      }),
      vscode.window.onDidCloseTerminal((t) => {
        if (this.terminal?.term === t) {
          this.terminal.emitter.dispose();
          this.terminal = undefined;
        }
      }),
    );
  }

  roots(): WorkspaceRoot[] {
    return (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => ({ name: f.name, path: f.uri.fsPath }));
  }

  excludePatterns(root: WorkspaceRoot): string[] {
    // Per folder: a multi-root workspace may hide different things in each. Only plain `true`
    // entries; a `{ "when": … }` condition depends on sibling files and is left to VS Code.
    const setting =
      vscode.workspace.getConfiguration('files', vscode.Uri.file(root.path)).get<Record<string, unknown>>('exclude') ??
      {};
    return Object.entries(setting)
      .filter(([, on]) => on === true)
      .map(([pattern]) => pattern);
  }

  editorText(absolute: string): string | undefined {
    return this.openDocument(absolute)?.getText();
  }

  async showChange(change: FileChange): Promise<void> {
    // The approval card shows the change as text instead (see `applyChange`).
    if (remoteSchemaJson(change)) return;
    const { left, right } = this.diffUris(change);
    this.proposals.set(right.toString(), change.after);
    if (change.kind === 'create') this.proposals.set(left.toString(), '');
    const title = vscode.l10n.t('{0}: proposed change (Gateway Studio)', change.file.relative);
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true, preserveFocus: true });
  }

  closeChange(change: FileChange): void {
    const { left, right } = this.diffUris(change);
    this.proposals.delete(right.toString());
    this.proposals.delete(left.toString());
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === right.toString());
    if (tabs.length) void vscode.window.tabGroups.close(tabs, true);
  }

  async applyChange(change: FileChange): Promise<string | undefined> {
    const uri = vscode.Uri.file(change.file.absolute);
    // VS Code downloads the `$schema` of an open JSON document at once: a file the model wrote
    // would make the editor send a request to a host of the file author's choosing. Such a file
    // is written to disk without opening a document (not even a hidden one) and not shown.
    if (remoteSchemaJson(change) && !this.openDocument(change.file.absolute)) {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(change.after));
      return 'The file names a remote JSON schema, so it was written without opening it in an editor (VS Code would download the schema).';
    }
    const edit = new vscode.WorkspaceEdit();
    const label = vscode.l10n.t('Gateway Studio: {0}', change.file.relative);
    let doc: vscode.TextDocument | undefined;
    let wasDirty = false;
    if (change.kind === 'create') {
      edit.createFile(uri, { contents: new TextEncoder().encode(change.after) }, { label, needsConfirmation: false });
    } else {
      doc = await vscode.workspace.openTextDocument(uri);
      wasDirty = doc.isDirty;
      const all = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
      edit.replace(uri, all, change.after, { label, needsConfirmation: false });
    }
    if (!(await vscode.workspace.applyEdit(edit))) {
      throw new ToolError(
        `VS Code could not apply the change to "${change.file.relative}" (the file may be read-only or was changed meanwhile).`,
      );
    }
    // Saved so later tools (a build command) see the change; the edit stays on the editor's undo
    // stack. A document that already had the user's unsaved edits is left unsaved: saving would
    // write their work too, without asking.
    let note: string | undefined;
    if (doc && wasDirty)
      note =
        'The file had unsaved changes by the user, so it was left unsaved: commands see the old content on disk until the user saves.';
    else if (doc && !(await doc.save()))
      note =
        'VS Code could not save the file, so the change is only in the editor: commands see the old content on disk until the user saves.';
    await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: true });
    return note;
  }

  async runCommand(command: string, opts: CommandOptions): Promise<CommandResult> {
    const out = this.ensureTerminal();
    out.term.show(true);
    const crlf = (s: string) => s.replace(/\r?\n/g, '\r\n');
    out.write(`\x1b[1m$ ${crlf(command)}\x1b[0m  \x1b[2m(${opts.cwd})\x1b[0m\r\n`);
    const r = await runShellCommand(command, { ...opts, onOutput: (t) => out.write(crlf(t)) });
    const end = r.timedOut
      ? vscode.l10n.t('stopped: time limit')
      : r.aborted
        ? vscode.l10n.t('stopped')
        : vscode.l10n.t('exit code {0}', String(r.exitCode ?? r.signal));
    out.write(`\r\n\x1b[2m[${end}]\x1b[0m\r\n\r\n`);
    return r;
  }

  commandTimeoutMs(): number {
    // Read through the settings so a value that is not a number gets the default (and a log line).
    return readSettings().tools.commandTimeoutSeconds * 1000;
  }

  selection(): SelectionInfo | undefined {
    // The editor the user last worked in, as for @selection: the chat may have the focus now.
    const ed = activeEditors().current();
    if (!ed) return undefined;
    const doc = ed.document;
    const sel = ed.selection;
    const base = { language: doc.languageId, startLine: sel.start.line + 1, endLine: sel.end.line + 1 };
    if (doc.uri.scheme === 'file')
      return {
        ...base,
        absolute: doc.uri.fsPath,
        label: vscode.workspace.asRelativePath(doc.uri),
        text: doc.getText(sel),
      };
    if (doc.uri.scheme === 'untitled') return { ...base, label: doc.uri.path, text: doc.getText(sel) };
    // Output channels, settings and other virtual documents are not workspace files.
    return { ...base, label: `${doc.uri.scheme} document (not a workspace file)`, text: '' };
  }

  diagnostics(absolute?: string): DiagnosticInfo[] {
    const pairs: [vscode.Uri, readonly vscode.Diagnostic[]][] = absolute
      ? [[vscode.Uri.file(absolute), vscode.languages.getDiagnostics(vscode.Uri.file(absolute))]]
      : vscode.languages.getDiagnostics();
    const sev = ['error', 'warning', 'information', 'hint'] as const;
    return pairs
      .filter(([uri]) => uri.scheme === 'file')
      .flatMap(([uri, ds]) =>
        ds.map((d) => ({
          absolute: uri.fsPath,
          line: d.range.start.line + 1,
          column: d.range.start.character + 1,
          severity: sev[d.severity] ?? 'information',
          message: d.message,
          ...(d.source ? { source: d.source } : {}),
        })),
      );
  }

  dispose(): void {
    this.terminal?.term.dispose();
    for (const d of this.disposables) d.dispose();
  }

  private openDocument(absolute: string): vscode.TextDocument | undefined {
    const norm = (p: string) =>
      process.platform === 'win32' || process.platform === 'darwin'
        ? path.normalize(p).toLowerCase()
        : path.normalize(p);
    const want = norm(absolute);
    return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && norm(d.uri.fsPath) === want);
  }

  private diffUris(change: FileChange): { left: vscode.Uri; right: vscode.Uri } {
    // The file name stays last so the diff tab shows it and picks the right language.
    const right = vscode.Uri.from({
      scheme: PROPOSAL_SCHEME,
      path: `/${change.callId}/proposed/${change.file.relative}`,
    });
    const left =
      change.kind === 'create'
        ? vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${change.callId}/empty/${change.file.relative}` })
        : vscode.Uri.file(change.file.absolute);
    return { left, right };
  }

  private ensureTerminal(): MirrorTerminal {
    if (this.terminal) return this.terminal;
    const emitter = new vscode.EventEmitter<string>();
    // A pseudoterminal drops writes made before `open`, so they wait in `early`.
    let early: string[] | undefined = [
      vscode.l10n.t('Commands run by Gateway Studio tools appear here (their output is also sent to the model).') +
        '\r\n\r\n',
    ];
    const pty: vscode.Pseudoterminal = {
      onDidWrite: emitter.event,
      open: () => {
        for (const e of early ?? []) emitter.fire(e);
        early = undefined;
      },
      close: () => undefined,
    };
    const term = vscode.window.createTerminal({
      name: vscode.l10n.t('Gateway Studio: commands'),
      pty,
      isTransient: true,
    });
    const write = (text: string) => (early ? early.push(text) : emitter.fire(text));
    this.terminal = { term, emitter, write };
    return this.terminal;
  }
}

interface MirrorTerminal {
  term: vscode.Terminal;
  emitter: vscode.EventEmitter<string>;
  write(text: string): void;
}

/** A JSON file whose new content names a schema on a web server. */
function remoteSchemaJson(change: FileChange): boolean {
  return isJsonName(change.file.relative) && hasRemoteSchema(change.after);
}
