import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';

/**
 * Gives the code without `vscode` (src/api and every feature's core/, which translate with
 * `@vscode/l10n`) the same bundle as `vscode.l10n`, so their words follow the display language.
 * Called once, by activation, before any feature registers: a feature that configured it for
 * itself (the video one did not) was translated only when another happened to go first.
 */
export function configureCoreL10n(): void {
  const bundle = vscode.l10n.bundle;
  if (bundle) l10n.config({ contents: bundle });
}
