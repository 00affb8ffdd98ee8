import * as vscode from 'vscode';
import type { Services } from '../../platform/services';

export const GENERATE_IMAGE_COMMAND = 'gatewayStudio.images.generate';
export const EDIT_IMAGE_COMMAND = 'gatewayStudio.images.edit';

/**
 * The images feature: its commands and its library (`services.media.images`, what the Media
 * gallery and a board's keyframes use) load with ../library/vscode/port on first use.
 */
export function registerImages(s: Services): void {
  const port = () => import('../library/vscode/port');
  s.media.images = async () => (await port()).imageLibrary(s);
  s.context.subscriptions.push(
    vscode.commands.registerCommand(GENERATE_IMAGE_COMMAND, async () => (await port()).generateCommand(s)),
    vscode.commands.registerCommand(EDIT_IMAGE_COMMAND, async (uri?: unknown) =>
      (await port()).editCommand(s, uri instanceof vscode.Uri ? uri : undefined),
    ),
  );
}
