import * as vscode from 'vscode';
import { agentSpentTodayKey } from '../../contracts/persistedState/video';
import { persistedState } from '../../platform/persistedState';
import type { Services } from '../../platform/services';
import type { VideoSpend } from '../base/vscode/spend';
import { costLines, type ClipCost } from '../jobs/core/costs';
import type { VideoJobManager } from '../jobs/core/manager';
import type { VideoTaskRecord } from '../jobs/core/record';
import type { StatusBarModel } from '../jobs/core/summary';
import type { VideoStatusBar } from '../jobs/vscode/statusBar';

/**
 * The host tests' seams into the video feature: registered only in the builds they load
 * (`__GWS_TEST_COMMANDS__`, src/testCommands.d.ts), never in the product.
 */
export const VIDEO_TEST_COMMANDS = {
  /** `{ tasks, running, statusBar, costs }`. */
  debugState: 'gatewayStudio.video.debugState',
  /** `(answers)` answers the next price dialogs and clears the list; `()` lists those shown. */
  spendDialogs: 'gatewayStudio.video.testSpendDialogs',
  /** What agents spent today without being asked, as kept; `(true)` also clears it (a test's clean day). */
  agentSpend: 'gatewayStudio.video.testAgentSpend',
} as const;

/** What the debug-state command returns. */
export interface VideoDebugState {
  tasks: VideoTaskRecord[];
  running: string[];
  statusBar: StatusBarModel;
  /** Per task key: the estimate and charge kept, and the card's lines for them. */
  costs: Record<string, ClipCost & { cost?: string; flag?: string }>;
}

export function registerVideoTestCommands(
  s: Services,
  o: { manager: VideoJobManager; bar: VideoStatusBar; spend: VideoSpend },
): void {
  const { manager, spend } = o;
  let shown: Array<{ message: string; detail?: string }> = [];
  s.context.subscriptions.push(
    vscode.commands.registerCommand(VIDEO_TEST_COMMANDS.debugState, (): VideoDebugState => ({
      tasks: manager.list(),
      running: manager
        .list()
        .filter((r) => manager.isRunning(r.key))
        .map((r) => r.key),
      statusBar: o.bar.model,
      costs: Object.fromEntries(
        manager.list().map((r) => {
          const c = spend.costOf(r.key);
          return [r.key, { ...c, ...costLines(c) }];
        }),
      ),
    })),
  );
  // It answers the price questions: only under the integration tests, never in a dev build's own use.
  if (s.context.extensionMode !== vscode.ExtensionMode.Test) return;
  s.context.subscriptions.push(
    vscode.commands.registerCommand(VIDEO_TEST_COMMANDS.spendDialogs, (answers?: Array<'accept' | 'decline'>) => {
      if (!answers) return [...shown];
      shown = [];
      const queue = [...answers];
      spend.dialogs = {
        showWarningMessage: (message: string, options: vscode.MessageOptions, ...items: string[]) => {
          shown.push({ message, detail: options.detail });
          return Promise.resolve(queue.shift() === 'accept' ? items[0] : undefined);
        },
      } as unknown as typeof spend.dialogs;
      return [];
    }),
    vscode.commands.registerCommand(VIDEO_TEST_COMMANDS.agentSpend, async (clear?: boolean) => {
      const store = persistedState(s.context);
      const kept = store.get(agentSpentTodayKey);
      if (clear) await store.set(agentSpentTodayKey, undefined);
      return kept;
    }),
  );
}
