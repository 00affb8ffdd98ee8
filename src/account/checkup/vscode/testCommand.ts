import * as vscode from 'vscode';

/** Hidden, in test builds only (`__GWS_TEST_COMMANDS__`): the check-up's seam for the host tests. */
export const CHECKUP_TEST_COMMAND = 'gatewayStudio.checkup.test';

/**
 * `(answers)` queues the next answers of the cost question (`run`, `window`, `no`) and clears
 * what was shown; `()` returns the questions shown and the last report. It loads the check-up
 * as the command does, on first use.
 */
export function registerCheckupTestCommand(): vscode.Disposable {
  return vscode.commands.registerCommand(CHECKUP_TEST_COMMAND, async (answers?: Array<'run' | 'window' | 'no'>) => {
    const { checkupTestHook } = await import('./checkupCommand');
    if (!answers) return { questions: [...checkupTestHook.questions], last: checkupTestHook.last };
    checkupTestHook.answers = [...answers];
    checkupTestHook.questions = [];
    checkupTestHook.last = undefined;
    return undefined;
  });
}
