import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import { imageChatTools, registerImageLmTools } from '../tools/vscode/toolDefs';
// Static under the flag: registered before activation returns; esbuild drops it from the product.
import { registerImageTestCommands } from './testCommands';

export const GENERATE_IMAGE_COMMAND = 'gatewayStudio.images.generate';

/**
 * The images feature: its command loads the wizard, the client and the catalog on first use; its
 * agent tools are definitions here and load their work on the first call. The chat's tools (and
 * the MCP server's) are added to `s.chatTools` before the chat loads.
 */
export function registerImages(s: Services): void {
  s.context.subscriptions.push(
    vscode.commands.registerCommand(GENERATE_IMAGE_COMMAND, async () =>
      (await import('../generate/vscode/generateImage')).generateImage(s),
    ),
  );
  registerImageLmTools(s);
  s.chatTools.push(...imageChatTools(s));
  if (__GWS_TEST_COMMANDS__) registerImageTestCommands(s);
}
