import * as vscode from 'vscode';
import * as path from 'node:path';
import { leadsToSecret, linkOutOfWorkspace } from '../../../platform/workspaceLinks';

/** Image types a reference image may have, by extension. */
export const IMAGE_MIME: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.bmp': 'image/bmp',
};

/** Glob for workspace image files (the quick pick and the explorer menu use the same list). */
export const IMAGE_GLOB = '**/*.{png,jpg,jpeg,webp,gif,bmp,PNG,JPG,JPEG,WEBP,GIF,BMP}';

/** Reference images larger than this are refused before they are encoded and sent. */
export const MAX_REFERENCE_IMAGE_BYTES = 20 * 1024 * 1024;

export function isImageUri(uri: vscode.Uri): boolean {
  return IMAGE_MIME[path.extname(uri.path).toLowerCase()] !== undefined;
}

/**
 * Reads a local image as a complete base64 data URL (spec 2.4: the service cannot reach files on
 * this machine, so they travel inside the request). Throws an error naming the file when it is not
 * an image type we know or is too large.
 */
export async function imageToDataUrl(uri: vscode.Uri): Promise<string> {
  const name = path.basename(uri.path);
  const mime = IMAGE_MIME[path.extname(uri.path).toLowerCase()];
  if (!mime) throw new Error(vscode.l10n.t('{0} is not a PNG, JPEG, WebP, GIF or BMP image.', name));
  // `ref.png -> ~/.ssh/id_rsa` in a cloned repository would otherwise be uploaded to the gateway.
  if ((await linkOutOfWorkspace(uri)) !== undefined)
    throw new Error(
      vscode.l10n.t(
        '{0} is a symbolic link that leads outside the workspace; it is not sent as a reference image.',
        name,
      ),
    );
  // `ref.png -> .env` inside the workspace: the one list of secret files counts for uploads too.
  if (await leadsToSecret(uri))
    throw new Error(
      vscode.l10n.t(
        '{0} is, or links to, a file that may hold secrets (such as .env or a key); it is not sent as a reference image.',
        name,
      ),
    );
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.size > MAX_REFERENCE_IMAGE_BYTES) {
    throw new Error(
      vscode.l10n.t(
        '{0} is {1} MB; reference images may be at most {2} MB. Use a smaller image or an HTTPS link.',
        name,
        (stat.size / 1048576).toFixed(1),
        MAX_REFERENCE_IMAGE_BYTES / 1048576,
      ),
    );
  }
  const bytes = await vscode.workspace.fs.readFile(uri);
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}

/** A label for the record and the sidecar: the workspace-relative path, never the data. */
export function imageLabel(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}
