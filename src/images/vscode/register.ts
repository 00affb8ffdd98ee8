import * as vscode from 'vscode';
import type { Services } from '../../platform/services';

export const GENERATE_IMAGE_COMMAND = 'gatewayStudio.images.generate';

/** The images feature: its command loads the wizard, the client and the catalog on first use. */
export function registerImages(s: Services): void {
  s.context.subscriptions.push(
    vscode.commands.registerCommand(GENERATE_IMAGE_COMMAND, async () =>
      (await import('../generate/vscode/generateImage')).generateImage(s),
    ),
  );
}
