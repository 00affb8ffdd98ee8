import * as vscode from 'vscode';
import type { Services } from '../../../platform/services';

/**
 * The status-bar item of the active profile, shown once there is more than one, switching on
 * click; and the context key that shows the switch in the chat view's title.
 */
export function profileStatusBar(s: Services): vscode.Disposable {
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
    void vscode.commands.executeCommand('setContext', 'gatewayStudio.profileCount', profiles.length);
  };
  sync();
  return vscode.Disposable.from(item, s.profiles.onDidChange(sync));
}
