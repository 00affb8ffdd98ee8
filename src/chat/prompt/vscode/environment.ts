// The editor's state for the system prompt's environment section, read from VS Code when a request
// is built (src/chat/prompt/core/systemPrompt.ts turns it into text).
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { EnvironmentSnapshot } from '../core/systemPrompt';

/** Open editors named at most; a workspace with a hundred tabs should not fill the prompt. */
const MAX_OPEN_EDITORS = 30;

/**
 * Remembers the last text editor the user worked in. When the chat is an editor panel, focusing it
 * leaves VS Code without an active text editor; the file the user was in is still the subject.
 */
export class EditorEnvironment implements vscode.Disposable {
  private last: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  /** Documents the chat opened itself (the "Show what is sent" preview): never the subject. */
  private readonly own = new WeakSet<vscode.TextDocument>();
  private readonly sub: vscode.Disposable;

  constructor() {
    this.sub = vscode.window.onDidChangeActiveTextEditor((e) => {
      if (e && !this.own.has(e.document)) this.last = e;
    });
  }

  /** Leaves `doc` out of the active file and the open editors. */
  ignore(doc: vscode.TextDocument): void {
    this.own.add(doc);
  }

  snapshot(now = new Date()): EnvironmentSnapshot {
    const active = vscode.window.activeTextEditor;
    const editor =
      active && !this.own.has(active.document)
        ? active
        : this.last && !this.last.document.isClosed
          ? this.last
          : undefined;
    const owned = new Set<string>();
    for (const d of vscode.workspace.textDocuments) if (this.own.has(d)) owned.add(d.uri.toString());
    const open: string[] = [];
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      if (!(tab.input instanceof vscode.TabInputText) || owned.has(tab.input.uri.toString())) continue;
      const name = vscode.workspace.asRelativePath(tab.input.uri);
      if (!open.includes(name)) open.push(name);
      if (open.length >= MAX_OPEN_EDITORS) break;
    }
    const pad = (n: number) => String(n).padStart(2, '0');
    return {
      os: `${os.type()} ${os.release()} (${os.arch()})`,
      shell: vscode.env.shell,
      folders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.name),
      date: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`,
      ...(editor
        ? {
            activeFile: {
              path: vscode.workspace.asRelativePath(editor.document.uri),
              language: editor.document.languageId,
              selection: {
                startLine: editor.selection.start.line + 1,
                startColumn: editor.selection.start.character + 1,
                endLine: editor.selection.end.line + 1,
                endColumn: editor.selection.end.character + 1,
              },
            },
          }
        : {}),
      openEditors: open,
    };
  }

  dispose(): void {
    this.sub.dispose();
  }
}
