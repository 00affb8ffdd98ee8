import * as vscode from 'vscode';
import type { Services } from '../../../platform/services';
import { registerApprovalTestHook } from './approval';
import type * as Editor from './editor';

/**
 * The host tests' seams into the storyboards: registered only in the builds they load
 * (`__GWS_TEST_COMMANDS__`, src/testCommands.d.ts), never in the product.
 */
export const STORYBOARD_TEST_COMMANDS = {
  /** `(path)` the open board's last view and state; `(path, message)` an export call as the page makes it. */
  debugState: 'gatewayStudio.storyboard.debugState',
} as const;

export function registerStoryboardTestCommands(s: Services, editor: () => Promise<typeof Editor>): void {
  s.context.subscriptions.push(
    vscode.commands.registerCommand(STORYBOARD_TEST_COMMANDS.debugState, async (file: string, exportCall?: unknown) => {
      const session = (await editor()).sessions.get(file);
      if (session && exportCall !== undefined) return session.exportMessage(exportCall);
      return session ? { view: session.view(), state: session.gen.state } : undefined;
    }),
  );
  registerApprovalTestHook(s.context);
}
