import * as vscode from 'vscode';

/**
 * The text editor the user works in. When the chat (an editor panel or a view) has the focus,
 * VS Code has no active text editor, yet the file the user was in is still the subject: the
 * @selection mention, the get_selection tool, the prompt's environment and "Insert at cursor"
 * all mean that one, so they all ask here.
 */
export class ActiveEditorTracker implements vscode.Disposable {
  private last: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  /** Documents the extension opened itself (the "Show what is sent" preview): never the subject. */
  private readonly own = new WeakSet<vscode.TextDocument>();
  private readonly sub = vscode.window.onDidChangeActiveTextEditor((e) => {
    if (e && !this.own.has(e.document)) this.last = e;
  });

  /** The active text editor, else the one last active while it is still open. */
  current(): vscode.TextEditor | undefined {
    const active = vscode.window.activeTextEditor;
    if (active && !this.own.has(active.document)) return active;
    return this.last && !this.last.document.isClosed ? this.last : undefined;
  }

  /** Leaves `doc` out: it is never the editor the user works in. */
  ignore(doc: vscode.TextDocument): void {
    this.own.add(doc);
  }

  /** Whether the extension opened `doc` itself. */
  ignores(doc: vscode.TextDocument): boolean {
    return this.own.has(doc);
  }

  dispose(): void {
    this.sub.dispose();
  }
}

// Kept on globalThis, not in a module variable: any second copy of this module in the host (a
// bundle of its own, as the @-mention sources once were) would otherwise get a second tracker that
// started late, after the chat already had the focus. The chunks of dist/ share one copy.
const KEY = Symbol.for('gatewayStudio.activeEditorTracker');
const holder = globalThis as { [KEY]?: ActiveEditorTracker };

/** The one tracker, started by {@link trackActiveEditor} at activation (or on first use). */
export function activeEditors(): ActiveEditorTracker {
  return (holder[KEY] ??= new ActiveEditorTracker());
}

/** Starts the tracker at activation, so it knows the editor before the chat ever has focus. */
export function trackActiveEditor(): vscode.Disposable {
  const tracker = activeEditors();
  return {
    dispose: () => {
      tracker.dispose();
      if (holder[KEY] === tracker) delete holder[KEY];
    },
  };
}
