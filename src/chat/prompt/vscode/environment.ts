// The editor's state for the system prompt's environment section, read from VS Code when a request
// is built (src/chat/prompt/core/systemPrompt.ts turns it into text).
import * as os from 'node:os';
import * as vscode from 'vscode';
import { activeEditors } from '../../../platform/activeEditor';
import type { EnvironmentSnapshot } from '../core/systemPrompt';

/** Open editors named at most; a workspace with a hundred tabs should not fill the prompt. */
const MAX_OPEN_EDITORS = 30;

/**
 * The editor state for the prompt. The file the user works in comes from the extension's one
 * editor tracker (platform/activeEditor.ts): when the chat has the focus, VS Code has no active
 * text editor, yet the file the user was in is still the subject.
 */
export class EditorEnvironment implements vscode.Disposable {
  /** Leaves `doc` (a document the chat opened itself) out of the active file and the open editors. */
  ignore(doc: vscode.TextDocument): void {
    activeEditors().ignore(doc);
  }

  snapshot(now = new Date()): EnvironmentSnapshot {
    const tracker = activeEditors();
    const editor = tracker.current();
    const owned = new Set<string>();
    for (const d of vscode.workspace.textDocuments) if (tracker.ignores(d)) owned.add(d.uri.toString());
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
    // Nothing held: the tracker is the extension's.
  }
}
