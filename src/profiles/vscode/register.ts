import * as vscode from 'vscode';
import type { Services } from '../../platform/services';

/**
 * Gateway profiles' commands and status-bar item (issue 22). Only the command names are here at
 * activation; their code and the item load right after, from their own chunk.
 */
export function registerProfiles(s: Services): void {
  const commands = () => import('../manage/vscode/commands');
  s.context.subscriptions.push(
    vscode.commands.registerCommand('gatewayStudio.switchProfile', async (id?: unknown) =>
      (await commands()).switchProfile(s, typeof id === 'string' ? id : undefined),
    ),
    vscode.commands.registerCommand('gatewayStudio.addProfile', async () => (await commands()).addProfileCommand(s)),
    vscode.commands.registerCommand('gatewayStudio.removeProfile', async (id?: unknown) =>
      (await commands()).removeProfileCommand(s, typeof id === 'string' ? id : undefined),
    ),
  );
  void import('../manage/vscode/statusBar')
    .then((m) => s.context.subscriptions.push(m.profileStatusBar(s)))
    .catch((e: unknown) => s.log.warn(`The profile status bar did not load: ${String(e)}`));
}
