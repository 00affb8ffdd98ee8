/**
 * Where images are written (`gatewayStudio.images.outputFolder`, default `images`). As for clips:
 * a workspace-level value must be a relative folder, and any relative folder must really be inside
 * the workspace (a committed `images -> ~/.config/autostart` link is refused); only the user's own
 * settings may name a folder outside.
 */
import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import { checkInside } from '../../../files/insideWorkspace';
import { GatewayError } from '../../../api/transport/errors';

export const IMAGE_OUTPUT_SETTING = 'gatewayStudio.images.outputFolder';
export const DEFAULT_IMAGE_FOLDER = 'images';

export interface ImageFolderInput {
  /** The effective setting value ('' for the default). */
  value: string;
  /** The value the workspace, folder or remote settings give, if any: what a repository controls. */
  repoValue: string | undefined;
  /** The folder a relative value is taken from (the first workspace folder), if one is open. */
  folder: string | undefined;
  roots: readonly string[];
}

/** The folder to write images to; undefined when it is relative and no folder is open. */
export async function imageFolderFor(o: ImageFolderInput): Promise<string | undefined> {
  const out = o.value.trim() || DEFAULT_IMAGE_FOLDER;
  const repo = o.repoValue?.trim();
  const escapes = (p: string) => path.isAbsolute(p) || path.normalize(p).split(/[\\/]/).includes('..');
  if (repo !== undefined && repo !== '' && escapes(repo))
    throw new GatewayError(
      'config',
      l10n.t(
        'The workspace setting {0} ("{1}") points outside the workspace. Use a workspace-relative folder there, or set an outside folder in your user settings.',
        IMAGE_OUTPUT_SETTING,
        repo,
      ),
      { field: IMAGE_OUTPUT_SETTING },
    );
  if (path.isAbsolute(out)) return out;
  if (o.folder === undefined) return undefined;
  const dir = path.join(o.folder, out);
  const where = await checkInside(dir, o.roots.length ? o.roots : [o.folder]);
  if (!where.inside)
    throw new GatewayError(
      'config',
      l10n.t(
        'The image folder {0} leads outside the workspace through a symbolic link (to {1}), so no image is written there. Remove the link, or set an outside folder in your user settings ({2}).',
        dir,
        where.real,
        IMAGE_OUTPUT_SETTING,
      ),
      { field: IMAGE_OUTPUT_SETTING },
    );
  return dir;
}
