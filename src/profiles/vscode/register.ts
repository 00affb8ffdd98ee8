import * as vscode from 'vscode';
import type { Services } from '../../platform/services';

/**
 * Gateway profiles' commands and status-bar item (issue 22). The item shows the active profile
 * once there is more than one, and switches on click; the commands' code loads on first use.
 */
export function registerProfiles(s: Services): void {
  const commands = () => import('../manage/vscode/commands');
  const item = vscode.window.createStatusBarItem('gatewayStudio.profile', vscode.StatusBarAlignment.Right, 101);
  item.name = vscode.l10n.t('Gateway Studio Profile');
  item.command = 'gatewayStudio.switchProfile';
  const sync = (): void => {
    const { profiles } = s.profiles.list();
    const active = s.profiles.active();
    item.text = `$(plug) ${active.name}`;
    item.tooltip = vscode.l10n.t('Gateway profile: {0}. Click to switch.', active.name);
    item.accessibilityInformation = { label: vscode.l10n.t('Gateway profile {0}, switch', active.name) };
    if (profiles.length > 1) item.show();
    else item.hide();
    // The chat view's title shows the switch once there is something to switch to.
    void vscode.commands.executeCommand('setContext', 'gatewayStudio.profileCount', profiles.length);
  };
  sync();
  s.context.subscriptions.push(
    item,
    s.profiles.onDidChange(sync),
    vscode.commands.registerCommand('gatewayStudio.switchProfile', async (id?: unknown) =>
      (await commands()).switchProfile(s, typeof id === 'string' ? id : undefined),
    ),
    vscode.commands.registerCommand('gatewayStudio.addProfile', async () => (await commands()).addProfileCommand(s)),
    vscode.commands.registerCommand('gatewayStudio.removeProfile', async (id?: unknown) =>
      (await commands()).removeProfileCommand(s, typeof id === 'string' ? id : undefined),
    ),
  );
}
