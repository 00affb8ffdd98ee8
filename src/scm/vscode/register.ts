import * as vscode from 'vscode';
import type { Services } from '../../platform/services';

/**
 * The Source Control view's command. Its code (the Git API, the request, the cleaning) is loaded
 * on the first click, not at activation, so the host bundle carries these few lines only.
 */
export function registerScm(s: Services): void {
  s.context.subscriptions.push(
    vscode.commands.registerCommand('gatewayStudio.generateCommitMessage', async (arg?: unknown) => {
      const { generateCommitMessage } = await import('../commitMessage/vscode/generate');
      return generateCommitMessage(s, arg);
    }),
  );
}
