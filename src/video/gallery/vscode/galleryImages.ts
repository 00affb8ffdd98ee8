/**
 * The Media gallery's images: the images feature's library (`services.media.images`, read through
 * its contract, never by importing that feature) as cards, and each card's actions. An action
 * names an image by its file name only; the host looks it up in the library's listing again, so a
 * page can never name a path of its own. Loaded with the first refresh that has a library.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { Services } from '../../../platform/services';
import type { GalleryHostMessage, GalleryImage, GalleryImageAction } from '../../../shared/protocol/gallery';

/** The images as cards (local files through `asUri`) and the folder they are in. */
export async function galleryImages(
  s: Services,
  asUri: (u: vscode.Uri) => string,
): Promise<{ dir?: string; images: GalleryImage[] }> {
  const lib = await s.media.images?.();
  if (!lib) return { images: [] };
  const [dir, items] = await Promise.all([lib.folder().catch(() => undefined), lib.list()]);
  const images = items.map((i) => ({
    name: i.name,
    file: vscode.workspace.asRelativePath(i.file, false),
    // The modification time busts the webview's cache when a file of the same name comes back.
    src: `${asUri(vscode.Uri.file(i.file))}?v=${Math.round(i.mtime)}`,
    ...(i.prompt ? { prompt: i.prompt } : {}),
    ...(i.model ? { model: i.model } : {}),
    ...(i.operation ? { operation: i.operation } : {}),
    ...(i.size ? { size: i.size } : {}),
    bytes: i.bytes,
    createdAt: i.mtime,
  }));
  return { ...(dir ? { dir } : {}), images };
}

/** What an image action needs from the gallery view. */
export interface ImagePort {
  post(msg: GalleryHostMessage): void;
  refresh(): Promise<void>;
}

async function deleteImage(file: string, port: ImagePort): Promise<void> {
  const del = vscode.l10n.t('Delete');
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t('Delete {0}?', path.basename(file)),
    {
      modal: true,
      detail: vscode.l10n.t('The image and its .json sidecar go to the trash where the system has one.'),
    },
    del,
  );
  if (pick !== del) return;
  for (const f of [file, file.replace(/\.[^.]+$/, '.json')])
    await vscode.workspace.fs
      .delete(vscode.Uri.file(f), { useTrash: true })
      .then(undefined, () => vscode.workspace.fs.delete(vscode.Uri.file(f)).then(undefined, () => undefined));
  await port.refresh();
  port.post({ type: 'gallery/notice', text: vscode.l10n.t('Deleted {0}', path.basename(file)), error: false });
}

/** An image card's action, on the image of that name in the library's listing (else nothing). */
export async function imageAction(s: Services, port: ImagePort, name: string, action: GalleryImageAction) {
  const lib = await s.media.images?.();
  const item = lib && (await lib.list()).find((i) => i.name === name);
  if (!lib || !item) return;
  switch (action) {
    case 'open':
      return void (await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(item.file)));
    case 'reveal':
      return void (await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(item.file)));
    case 'edit':
      return lib.edit(item.file);
    case 'deleteFile':
      return deleteImage(item.file, port);
  }
}
