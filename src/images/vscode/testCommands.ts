import * as vscode from 'vscode';
import type { Services } from '../../platform/services';

/**
 * The host tests' seams into the images feature: registered only in the builds they load
 * (`__GWS_TEST_COMMANDS__`, src/testCommands.d.ts), never in the product.
 */
export const IMAGE_TEST_COMMANDS = {
  /** `(operation, input)`: the approval a tool call would show (title, message with the price), or its refusal. Sends nothing. */
  prepare: 'gatewayStudio.images.debugPrepareTool',
  /** `(answers)` answers the next price questions and clears the list; `()` lists those shown. */
  dialogs: 'gatewayStudio.images.testDialogs',
} as const;

export function registerImageTestCommands(s: Services): void {
  s.context.subscriptions.push(
    vscode.commands.registerCommand(
      IMAGE_TEST_COMMANDS.prepare,
      async (operation: 'generate' | 'edit', input: unknown) => {
        const p = await (await import('../tools/vscode/agentTools')).prepareImageCall(s, operation, input);
        return p.ok ? { title: p.title, message: p.message } : { refused: p.text };
      },
    ),
  );
  // It answers the price questions: only under the integration tests, never in a dev build's own use.
  if (s.context.extensionMode !== vscode.ExtensionMode.Test) return;
  let shown: Array<{ message: string; detail?: string }> = [];
  s.context.subscriptions.push(
    vscode.commands.registerCommand(IMAGE_TEST_COMMANDS.dialogs, async (answers?: Array<'accept' | 'decline'>) => {
      if (!answers) return [...shown];
      shown = [];
      const queue = [...answers];
      const { imageDialogs } = await import('../base/vscode/imageRun');
      imageDialogs.current = {
        showWarningMessage: (message: string, options: vscode.MessageOptions, ...items: string[]) => {
          shown.push({ message, detail: options.detail });
          return Promise.resolve(queue.shift() === 'accept' ? items[0] : undefined);
        },
      } as unknown as typeof imageDialogs.current;
      return [];
    }),
  );
}
