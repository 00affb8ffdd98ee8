import * as vscode from 'vscode';
import type { UsageLedger } from '../core/ledger';
import { usageMarkdown, type ReportExtras } from '../core/usageReport';

export const SHOW_USAGE_COMMAND = 'gatewayStudio.spend.showUsage';
/** A read-only document of its own scheme: nothing to save, nothing written to disk. */
export const USAGE_SCHEME = 'gateway-studio-usage';
const USAGE_URI = vscode.Uri.from({ scheme: USAGE_SCHEME, path: '/usage.md' });

/**
 * The usage view: the ledger as a Markdown preview (per day, model and profile: requests, tokens,
 * clips, cost computed and charged) and each model's price on every profile, made fresh each
 * time the command runs. `extras` failing leaves the ledger's tables alone.
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
  return vscode.Disposable.from(
    changed,
    vscode.workspace.registerTextDocumentContentProvider(USAGE_SCHEME, provider),
    vscode.commands.registerCommand(SHOW_USAGE_COMMAND, async () => {
      changed.fire(USAGE_URI);
      try {
        await vscode.commands.executeCommand('markdown.showPreview', USAGE_URI);
      } catch {
        // Without the built-in Markdown extension: the text itself, which reads as well.
        await vscode.window.showTextDocument(USAGE_URI, { preview: true });
      }
      return USAGE_URI.toString();
    }),
  );
}
