import * as vscode from 'vscode';
import type { UsageLedger } from '../core/ledger';
import { usageMarkdown, type ReportExtras } from '../core/usageReport';

export const SHOW_USAGE_COMMAND = 'gatewayStudio.spend.showUsage';
/** A read-only document of its own scheme: nothing to save, nothing written to disk. */
export const USAGE_SCHEME = 'gateway-studio-usage';
const USAGE_URI = vscode.Uri.from({ scheme: USAGE_SCHEME, path: '/usage.md' });
/** True while the usage view's preview is the active tab: its title bar shows Check Up Relay. */
export const USAGE_VIEW_ACTIVE = 'gatewayStudio.usageViewActive';

/**
 * Whether the active tab is the usage view's Markdown preview. The preview is the built-in
 * Markdown extension's webview, whose title bar has no resource to match in a `when` clause, so
 * its tab is told by its view type and its title ("Preview usage.md" in any language).
 */
function usagePreviewActive(): boolean {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  return (
    tab?.input instanceof vscode.TabInputWebview &&
    tab.input.viewType.endsWith('markdown.preview') &&
    tab.label.endsWith('usage.md')
  );
}

/**
 * The usage view: the ledger as a Markdown preview (per day, model and profile: requests, tokens,
 * clips, cost computed and charged) and each model's price on every profile, made fresh each
 * time the command runs. `extras` failing leaves the ledger's tables alone. Its title bar has a
 * **Check Up Relay** button (package.json `editor/title`) for the active profile.
 */
export function registerUsageView(ledger: UsageLedger, extras?: () => Promise<ReportExtras>): vscode.Disposable {
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    provideTextDocumentContent: async () => {
      const more = extras ? await extras().catch(() => ({})) : {};
      return usageMarkdown(ledger.rows(), { generatedAt: new Date().toLocaleString(vscode.env.language), ...more });
    },
  };
  let shown = false;
  const track = (): void => {
    void vscode.commands.executeCommand('setContext', USAGE_VIEW_ACTIVE, shown && usagePreviewActive());
  };
  return vscode.Disposable.from(
    changed,
    vscode.window.tabGroups.onDidChangeTabs(track),
    vscode.window.tabGroups.onDidChangeTabGroups(track),
    vscode.workspace.registerTextDocumentContentProvider(USAGE_SCHEME, provider),
    vscode.commands.registerCommand(SHOW_USAGE_COMMAND, async () => {
      changed.fire(USAGE_URI);
      shown = true;
      try {
        await vscode.commands.executeCommand('markdown.showPreview', USAGE_URI);
      } catch {
        // Without the built-in Markdown extension: the text itself, which reads as well.
        await vscode.window.showTextDocument(USAGE_URI, { preview: true });
      }
      track();
      return USAGE_URI.toString();
    }),
  );
}
