import * as vscode from 'vscode';

/** Hidden, registered only under the integration tests: answers the next approvals and lists those shown. */
export const APPROVAL_TEST_COMMAND = 'gatewayStudio.storyboard.testApprovals';

let answers: boolean[] | undefined;
let shown: { message: string; detail: string }[] = [];

/**
 * Every generation of a board asks first, in a modal naming shots, seconds, models and the price.
 * Nothing in the workspace can answer it: only the user (or, under the integration tests, the
 * test's queued answers).
 */
export async function approve(q: { message: string; detail: string }): Promise<boolean> {
  if (answers) {
    shown.push(q);
    return answers.shift() ?? false;
  }
  const go = vscode.l10n.t('Generate');
  return (await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, go)) === go;
}

/** The test hook: `(queue)` sets the next answers and clears the list; `()` returns what was shown. */
export function registerApprovalTestHook(context: vscode.ExtensionContext): void {
  if (context.extensionMode !== vscode.ExtensionMode.Test) return;
  context.subscriptions.push(
    vscode.commands.registerCommand(APPROVAL_TEST_COMMAND, (queue?: boolean[]) => {
      if (!queue) return [...shown];
      answers = [...queue];
      shown = [];
      return undefined;
    }),
  );
}
