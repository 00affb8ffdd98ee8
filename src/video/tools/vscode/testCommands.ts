import * as vscode from 'vscode';
import type { Services } from '../../../platform/services';

/**
 * The host tests' seams into the video tools: registered only in the builds they load
 * (`__GWS_TEST_COMMANDS__`, src/testCommands.d.ts), never in the product.
 */
export const TOOLS_TEST_COMMANDS = {
  /** What `prepareInvocation` of the generate tool returns, as text. */
  prepare: 'gatewayStudio.video.debugPrepareTool',
  /**
   * Calls the generate tool's `invoke` without a `prepareInvocation` (a path VS Code itself never
   * takes), so the test can check that such a call is refused.
   */
  invokeUnprepared: 'gatewayStudio.video.testInvokeUnprepared',
} as const;

/** Markdown made by lmTools' `markdownLines` back as plain text. */
function plainText(m: string | vscode.MarkdownString | undefined): string | undefined {
  return typeof m === 'string' ? m : m?.value.replace(/ {2}\n/g, '\n').replace(/\\(.)/g, '$1');
}

export function registerLmToolTestCommands(
  s: Services,
  prepare: (input: unknown, record: boolean) => Promise<vscode.PreparedToolInvocation>,
  invoke: (input: unknown, token: vscode.CancellationToken) => Promise<vscode.LanguageModelToolResult>,
): void {
  s.context.subscriptions.push(
    // Shows the confirmation's text only: it records nothing, so it can never stand for a confirmation.
    vscode.commands.registerCommand(TOOLS_TEST_COMMANDS.prepare, async (input: unknown) => {
      const p = await prepare(input, false);
      return {
        invocationMessage: plainText(p.invocationMessage),
        title: plainText(p.confirmationMessages?.title),
        message: plainText(p.confirmationMessages?.message),
      };
    }),
  );
  // It reaches a billed task without VS Code's confirmation: only under the integration tests.
  if (s.context.extensionMode !== vscode.ExtensionMode.Test) return;
  s.context.subscriptions.push(
    vscode.commands.registerCommand(TOOLS_TEST_COMMANDS.invokeUnprepared, async (input: unknown) => {
      const r = await invoke(input, new vscode.CancellationTokenSource().token);
      return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    }),
  );
}
