import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import { REFRESH_BALANCE_COMMAND } from '../balance/vscode/statusBar';
import { userValue } from '../../platform/userSettings';
import { mayAskAboutGateway } from './accounts';
import { AccountFeature } from './feature';
import { registerAccountDebugState } from './debugState';
import { registerShowBalances, SHOW_BALANCES_COMMAND } from './balances';
import { checkupAccount, type CheckupArgs } from './checkupAccount';
import { registerCheckupTestCommand } from '../checkup/vscode/testCommand';

export const ACCOUNT_COMMANDS = {
  refreshBalance: REFRESH_BALANCE_COMMAND,
  exportUsage: 'gatewayStudio.spend.exportUsage',
  showBalances: SHOW_BALANCES_COMMAND,
  checkUpRelay: 'gatewayStudio.checkUpRelay',
  /** The usage view's title-bar button: the check-up of the active profile. */
  checkUpActiveProfile: 'gatewayStudio.spend.checkUpActiveProfile',
} as const;

const IDLE_TICK_MS = 60_000;
/** How often the optional check-up schedule looks for a due entry (and first, after start). */
const SCHEDULE_TICK_MS = 60 * 60_000;
const SCHEDULE_FIRST_MS = 5 * 60_000;

/**
 * The account feature: the balance item, the spend ledger, and the reads that feed them, after
 * answers and clips (heard on `s.usage`) and at most once a minute while idle. Loaded by
 * `extension.ts` through a dynamic import after activation.
 */
export function registerAccount(s: Services): vscode.Disposable {
  const account = new AccountFeature(s);
  const idle = setInterval(() => {
    if (!vscode.window.state.focused || mayAskAboutGateway()) return;
    void account.show({ read: 'idle' }).catch((err: unknown) => s.log.warn(`Account: ${String(err)}`));
  }, IDLE_TICK_MS);

  // The schedule is off unless the user's own settings list an entry; only then is it loaded.
  const scheduled = async () => {
    const entries = userValue('checkup.schedule');
    if (!Array.isArray(entries) || entries.length === 0 || !vscode.window.state.focused) return;
    const { runScheduledCheckups } = await import('../checkup/vscode/scheduled');
    const done = await runScheduledCheckups(s, checkupAccount(account));
    if (done.length) s.log.info(`Check-up schedule: ${done.join(', ')}`);
  };
  const tick = () => void scheduled().catch((err: unknown) => s.log.warn(`Check-up schedule: ${String(err)}`));
  const first = setTimeout(tick, SCHEDULE_FIRST_MS);
  const every = setInterval(tick, SCHEDULE_TICK_MS);

  const disposables: vscode.Disposable[] = [
    account,
    { dispose: () => clearInterval(idle) },
    { dispose: () => (clearTimeout(first), clearInterval(every)) },
    s.usage.on((ev) => account.count(ev)),
    vscode.workspace.onDidChangeConfiguration((c) => account.settingsChanged(c)),
    // Each profile is an account of its own: the balance follows the active one.
    s.profiles.onDidChange(() => account.showAnother()),
    registerShowBalances(account.balances),
    vscode.commands.registerCommand(ACCOUNT_COMMANDS.refreshBalance, async () => {
      await account.show({ read: 'now' });
    }),
    // The check-up loads on first use (account/checkup): only the command is registered here.
    vscode.commands.registerCommand(ACCOUNT_COMMANDS.checkUpRelay, async (args?: CheckupArgs) => {
      const { checkUpRelay } = await import('../checkup/vscode/checkupCommand');
      await checkUpRelay(s, checkupAccount(account), args);
    }),
    // A menu passes the editor's resource (ignored); a caller may name models (the cost is still asked).
    vscode.commands.registerCommand(ACCOUNT_COMMANDS.checkUpActiveProfile, async (arg?: unknown) => {
      const { checkUpRelay } = await import('../checkup/vscode/checkupCommand');
      const models = (arg as { models?: unknown } | undefined)?.models;
      const picked = Array.isArray(models) ? models.filter((m): m is string => typeof m === 'string') : undefined;
      await checkUpRelay(s, checkupAccount(account), {
        profile: s.profiles.activeId(),
        ...(picked?.length ? { models: picked } : {}),
      });
    }),
    vscode.commands.registerCommand(ACCOUNT_COMMANDS.exportUsage, async () => {
      const target = await vscode.window.showSaveDialog({
        filters: { CSV: ['csv'] },
        saveLabel: vscode.l10n.t('Export Usage'),
        defaultUri: vscode.Uri.file('gateway-usage.csv'),
      });
      if (!target) return;
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(account.ledger.toCsv()));
      void vscode.window.showInformationMessage(vscode.l10n.t('Usage exported to {0}.', target.fsPath));
    }),
  ];
  // The host tests' view of the item; not in the product bundle (src/testCommands.d.ts).
  if (__GWS_TEST_COMMANDS__) disposables.push(registerAccountDebugState(account), registerCheckupTestCommand());
  // The first reading, unless it could ask about a workspace's gateway before the user used it.
  if (!mayAskAboutGateway()) void account.show({ read: 'idle' }).catch(() => undefined);
  return vscode.Disposable.from(...disposables);
}
