import * as vscode from 'vscode';
import type { Services } from '../../platform/services';

export const GENERATE_IMAGE_COMMAND = 'gatewayStudio.images.generate';
export const EDIT_IMAGE_COMMAND = 'gatewayStudio.images.edit';

/**
 * The images feature: its commands load the wizard, the client and the catalog on first use; its
 * library (`services.media.images`) loads the same way, when the Media gallery or a board asks.
 */
export function registerImages(s: Services): void {
  const listeners = new Set<() => void>();
  const saved = () => listeners.forEach((l) => l());
  const gen = () => import('../generate/vscode/generateImage');
  const edit = async (file?: vscode.Uri) => (await import('../edit/vscode/editImage')).editImage(s, file, saved);
  s.media.images = {
    folder: async () => (await import('../base/vscode/imageSettings')).imageOutputFolder(),
    list: async () => (await import('../library/vscode/library')).listLibrary(),
    onDidSave: (l) => (listeners.add(l), { dispose: () => listeners.delete(l) }),
    edit: (file) => edit(vscode.Uri.file(file)),
    generate: async (req, signal) => {
      const file = await (await gen()).generateOne(s, req, signal);
      saved();
      return file;
    },
  };
  s.context.subscriptions.push(
    vscode.commands.registerCommand(GENERATE_IMAGE_COMMAND, async () => (await gen()).generateImage(s, saved)),
    vscode.commands.registerCommand(EDIT_IMAGE_COMMAND, (uri?: unknown) =>
      edit(uri instanceof vscode.Uri ? uri : undefined),
    ),
  );
}
