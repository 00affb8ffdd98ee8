import * as vscode from 'vscode';
import type { ErrorState } from '../core/scheduler';

/** What the item shows. */
export interface CompletionBarState {
  enabled: boolean;
  model: string;
  snoozedUntil: number;
  error?: ErrorState;
  /** The current editor's language is switched off. */
  languageOff?: boolean;
}

export const TOGGLE_COMMAND = 'gatewayStudio.completions.toggle';

/**
 * The status-bar toggle: the model's name while completion is on, "off" or "snoozed" otherwise,
 * and a failure (401/403/404/429) in the usual words once, in the item itself, not as a
 * notification on every keystroke. Clicking toggles completion.
 */
export class CompletionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'gatewayStudio.completionStatus',
    vscode.StatusBarAlignment.Right,
    100,
  );
  /** The text last shown (for the tests, through the state command). */
  text = '';

  constructor() {
    this.item.name = vscode.l10n.t('Gateway Studio Completion');
    this.item.command = TOGGLE_COMMAND;
  }

  show(s: CompletionBarState): void {
    const now = Date.now();
    let text: string;
    let tooltip: string;
    this.item.backgroundColor = undefined;
    if (!s.enabled) {
      text = `$(circle-slash) ${vscode.l10n.t('Completion off')}`;
      tooltip = vscode.l10n.t('Inline completion is off. Click to turn it on.');
    } else if (s.snoozedUntil > now) {
      const minutes = Math.ceil((s.snoozedUntil - now) / 60_000);
      text = `$(clock) ${vscode.l10n.t('Completion snoozed')}`;
      tooltip = vscode.l10n.t('Inline completion is snoozed for {0} more minute(s). Click to turn it off.', minutes);
    } else if (s.error) {
      text = `$(warning) ${s.model} ${s.error.status ?? ''}`.trimEnd();
      tooltip = `${s.error.title}. ${s.error.detail}`;
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    } else {
      text = `$(sparkle) ${s.model || vscode.l10n.t('no model')}`;
      tooltip = s.languageOff
        ? vscode.l10n.t('Inline completion is on, but off for this language. Click to turn it off.')
        : vscode.l10n.t('Inline completion with {0}. Click to turn it off.', s.model || vscode.l10n.t('no model'));
    }
    this.text = text;
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: text.replace(/\$\([^)]*\)\s*/g, '') };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
