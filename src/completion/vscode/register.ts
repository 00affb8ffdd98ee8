import * as vscode from 'vscode';
import type { Services } from '../../platform/services';

/**
 * Inline completion's registration: its code is a chunk of its own (esbuild.js), imported right
 * after activation, so the entry holds only these lines. The commands wait for it.
 */
export function registerCompletion(s: Services): void {
  const loaded = import('../inline/vscode/inline').then((m) => {
    const c = new m.InlineCompletion(s);
    s.context.subscriptions.push(c);
    return c;
  });
  loaded.catch((e: unknown) => s.log.error(`Inline completion did not start: ${String(e)}`));
  s.context.subscriptions.push(
    vscode.commands.registerCommand('gatewayStudio.completions.toggle', async () => (await loaded).toggle()),
    vscode.commands.registerCommand('gatewayStudio.completions.snooze', async (minutes?: unknown) =>
      (await loaded).snooze(typeof minutes === 'number' ? minutes : undefined),
    ),
    // Not contributed (no palette entry): what the tests read.
    vscode.commands.registerCommand('gatewayStudio.completions.state', async () => {
      const c = await loaded;
      return {
        last: c.last,
        stats: { ...c.scheduler.stats },
        error: c.scheduler.errorState,
        status: c.statusText,
        model: c.model(),
        settings: c.settings(),
      };
    }),
  );
}
