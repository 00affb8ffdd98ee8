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

/** A unit that changed since the run's approval is sent only on a new one, naming the changes; throws when declined. */
export async function approveChange(priceLine: string, u: { shotId: string; take: number }, changes: string[]) {
  const ok = await approve({
    message: vscode.l10n.t(
      'Shot "{0}" take {1} changed after you approved the run ({2}). Generate it as it is now?',
      u.shotId,
      u.take,
      changes.join('; '),
    ),
    detail: [priceLine, vscode.l10n.t('Generating is billed to your gateway account.')].join('\n'),
  });
  if (!ok)
    throw new Error(
      vscode.l10n.t(
        'not sent: the shot changed after the approval ({0}) and the change was not approved',
        changes.join('; '),
      ),
    );
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
