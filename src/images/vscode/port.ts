/**
 * The images feature as the others reach it (`services.media.images`, src/contracts/mediaImages.ts)
 * and its commands' entry points, in one module loaded on first use: activation holds only the
 * lines of ./register.ts. Saving anything tells the library's listeners (the Media
 * gallery refreshes).
 */
import * as vscode from 'vscode';
import type { ImageLibrary } from '../../contracts/mediaImages';
import type { Services } from '../../platform/services';
import { imageOutputFolder } from '../base/vscode/imageRun';
import { listImages } from '../library/core/listImages';

const listeners = new Set<() => void>();
const saved = () => listeners.forEach((l) => l());
let library: ImageLibrary | undefined;

export async function editCommand(s: Services, file: vscode.Uri | undefined): Promise<void> {
  await (await import('../edit/vscode/editImage')).editImage(s, file, saved);
}

export async function generateCommand(s: Services): Promise<void> {
  await (await import('../generate/vscode/generateImage')).generateImage(s, saved);
}

/** The one library of this window. */
export function imageLibrary(s: Services): ImageLibrary {
  library ??= {
    folder: imageOutputFolder,
    // No folder open, or a refused setting (the commands say why): nothing to list.
    list: async () => {
      const dir = await imageOutputFolder().catch(() => undefined);
      return dir ? listImages(dir) : [];
    },
    onDidSave: (l) => (listeners.add(l), { dispose: () => listeners.delete(l) }),
    edit: (file) => editCommand(s, vscode.Uri.file(file)),
    generate: async (req, signal) => {
      const file = await (await import('../generate/vscode/generateImage')).generateOne(s, req, signal);
      saved();
      return file;
    },
  };
  return library;
}
