import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import { imageChatTools, registerImageLmTools } from '../tools/vscode/toolDefs';
// Static under the flag: registered before activation returns; esbuild drops it from the product.
import { registerImageTestCommands } from './testCommands';

export const GENERATE_IMAGE_COMMAND = 'gatewayStudio.images.generate';
export const EDIT_IMAGE_COMMAND = 'gatewayStudio.images.edit';

/**
 * The images feature: its commands and its library (`services.media.images`, what the Media
 * gallery and a board's keyframes use) load with ./port on first use; its agent
 * tools are definitions here and load their work on the first call. The chat's tools (and the MCP
 * server's) are added to `s.chatTools` before the chat loads.
 */
export function registerImages(s: Services): void {
  const port = () => import('./port');
  s.media.images = async () => (await port()).imageLibrary(s);
  s.context.subscriptions.push(
    vscode.commands.registerCommand(GENERATE_IMAGE_COMMAND, async () => (await port()).generateCommand(s)),
    vscode.commands.registerCommand(EDIT_IMAGE_COMMAND, async (uri?: unknown) =>
      (await port()).editCommand(s, uri instanceof vscode.Uri ? uri : undefined),
    ),
  );
  registerImageLmTools(s);
  s.chatTools.push(...imageChatTools(s));
  if (__GWS_TEST_COMMANDS__) registerImageTestCommands(s);
}
