import * as vscode from 'vscode';
import { showGatewayError } from '../../../platform/gateway';
import type { Services } from '../../../platform/services';
import { setStepContext } from '../../../platform/walkthrough';
import type { ConnectionCheckResult } from './commands';

/** The checks and the model picker load with their first command: nothing of them runs at activation. */
const commands = () => import('./commands');

export function registerConnectionCommands(s: Services): void {
  s.context.subscriptions.push(
    vscode.commands.registerCommand('gatewayStudio.checkConnection', async (): Promise<ConnectionCheckResult> => {
      const c = await commands();
      const r = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Gateway Studio: checking the connection…') },
        () => c.checkConnection(s),
      );
      c.report(s, r);
      // The walkthrough's "Check the connection" step completes on this key.
      if (r.ok) setStepContext('connectionOk', true);
      return r;
    }),
    vscode.commands.registerCommand(
      'gatewayStudio.selectChatModel',
      async (modelId?: unknown): Promise<string | undefined> => {
        try {
          return await (await commands()).selectChatModel(s, typeof modelId === 'string' ? modelId : undefined);
        } catch (e) {
          showGatewayError(s, e);
          return undefined;
        }
      },
    ),
  );
}
