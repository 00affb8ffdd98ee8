import * as vscode from 'vscode';
import type { AccountSnapshot } from '../core/accountState';
import { balanceStatusModel, type BalanceStatusModel } from '../core/statusModel';

export const REFRESH_BALANCE_COMMAND = 'gatewayStudio.spend.refreshBalance';

/**
 * The balance status-bar item (`gatewayStudio.balance`): the figure with its unit, the tooltip of
 * {@link balanceStatusModel}, the warning colour below `gatewayStudio.spend.warnBelow`. A
 * gateway without a balance gets one quiet line in the status bar, once, and no item.
 */
export class BalanceStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private last: BalanceStatusModel = { visible: false, figure: '', tooltip: [], warn: false };
  private readonly saidNone = new Set<string>();

  constructor() {
    this.item = vscode.window.createStatusBarItem('gatewayStudio.balance', vscode.StatusBarAlignment.Right, 100);
    this.item.name = vscode.l10n.t('Gateway Studio Balance');
    this.item.command = REFRESH_BALANCE_COMMAND;
  }

  /** What the item shows now (for the debug-state command). */
  get model(): BalanceStatusModel & { text: string } {
    return { ...this.last, text: this.item.text };
  }

  /** `extra`: lines the tooltip adds after the model's (where clips are billed, when elsewhere). */
  render(s: AccountSnapshot, warnBelowQuota: number | undefined, extra: string[] = []): void {
    const model = balanceStatusModel(s, {
      warnBelowQuota,
      now: Date.now(),
      timeText: (ms) => new Date(ms).toLocaleString(vscode.env.language),
    });
    const m = model.visible ? { ...model, tooltip: [...model.tooltip, ...extra] } : model;
    this.last = m;
    if (m.quietLine && !this.saidNone.has(s.gateway)) {
      this.saidNone.add(s.gateway);
      vscode.window.setStatusBarMessage(m.quietLine, 8000);
    }
    if (!m.visible) {
      this.item.hide();
      return;
    }
    this.item.text = `$(credit-card) ${m.figure}`;
    const md = new vscode.MarkdownString();
    for (const line of m.tooltip) {
      md.appendText(line);
      md.appendMarkdown('  \n');
    }
    if (m.topUpLink) {
      md.appendMarkdown('\n');
      md.appendMarkdown(
        `[${vscode.l10n.t('Top up')}](${m.topUpLink.replace(/[()\s<>]/g, (c) => encodeURIComponent(c))})`,
      );
    }
    md.appendMarkdown('\n\n---\n\n');
    md.appendText(vscode.l10n.t('Click to read the balance again.'));
    this.item.tooltip = md;
    this.item.backgroundColor = m.warn ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = {
      label: m.warn
        ? vscode.l10n.t('Gateway balance {0}, below your warning threshold', m.figure)
        : vscode.l10n.t('Gateway balance {0}', m.figure),
    };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
