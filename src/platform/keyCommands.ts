import * as vscode from 'vscode';
import { apiKeyProblem } from './secrets';
import type { Services } from './services';

/**
 * Set API Key and Clear API Key, the only ways the key enters or leaves SecretStorage, and Forget
 * Workspace Gateway Choices, which undoes the answers about where the key may go.
 */
export function registerKeyCommands(s: Services): void {
  s.context.subscriptions.push(
    vscode.commands.registerCommand('gatewayStudio.setApiKey', async (): Promise<boolean> => {
      const key = await vscode.window.showInputBox({
        title: vscode.l10n.t('Gateway Studio: Set API Key'),
        prompt: vscode.l10n.t(
          'Paste an API key from the API Keys page of the gateway console. A web-login password is not an API key. The key is kept in VS Code secret storage, never in settings.',
        ),
        password: true,
        ignoreFocusOut: true,
        placeHolder: vscode.l10n.t('API key'),
        // No complaint about the empty box before the user has typed: VS Code validates the
        // initial value too, and a stale "empty" verdict can swallow the first Enter on a busy
        // host. An empty submission is still refused below.
        validateInput: (v) => (v.length === 0 ? undefined : apiKeyProblem(v)),
      });
      if (key === undefined) return false;
      const problem = apiKeyProblem(key);
      if (problem) {
        void vscode.window.showErrorMessage(problem);
        return false;
      }
      await s.keys.set(key);
      s.log.info('API key stored in secret storage');
      void vscode.window.showInformationMessage(vscode.l10n.t('Gateway Studio: API key saved in secret storage.'));
      return true;
    }),
    vscode.commands.registerCommand('gatewayStudio.clearApiKey', async (): Promise<void> => {
      await s.keys.clear();
      s.log.info('API key removed from secret storage');
      void vscode.window.showInformationMessage(vscode.l10n.t('Gateway Studio: API key removed.'));
    }),
    vscode.commands.registerCommand('gatewayStudio.forgetWorkspaceGateways', async (): Promise<void> => {
      await s.origins.forget();
      s.log.info('Forgot the answers about workspace-set gateway addresses');
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Gateway Studio: a workspace that sets the gateway address will ask again before your key is sent.',
        ),
      );
    }),
  );
}
