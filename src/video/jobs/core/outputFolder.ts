/**
 * Where clips are written. A repository controls its own `.vscode/settings.json` and its own
 * files, so neither may send downloads elsewhere on the machine: a workspace-level value must be a
 * relative folder, and any relative folder (the default `videos` included) must really be inside
 * the workspace; `videos -> ~/.config/autostart` committed to a repository would otherwise place
 * downloaded files there. Only the user's own settings may name a folder outside.
 */
import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import { checkInside } from '../../../files/insideWorkspace';
import { GatewayError } from '../../../api/transport/errors';

export const OUTPUT_FOLDER_SETTING = 'gatewayStudio.video.outputFolder';

export interface OutputFolderInput {
  /** The effective setting value ('' for the default). */
  value: string;
  /** The value the workspace or folder settings give, if any: what a repository controls. */
  repoValue: string | undefined;
  /** The folder a relative value is taken from (the first workspace folder), if one is open. */
  folder: string | undefined;
  /** Every workspace folder: a link into another one of them stays inside. */
  roots: readonly string[];
}

/**
 * The folder to write clips to; undefined when the value is relative and no folder is open (the
 * caller asks the user). Throws a `config` {@link GatewayError} naming the setting when the folder
 * leads outside the workspace without the user having said so.
 */
export async function outputFolderFor(o: OutputFolderInput): Promise<string | undefined> {
  const out = o.value.trim() || 'videos';
  const repo = o.repoValue?.trim();
  const escapes = (p: string) => path.isAbsolute(p) || path.normalize(p).split(/[\\/]/).includes('..');
  if (repo !== undefined && repo !== '' && escapes(repo)) {
    throw new GatewayError(
      'config',
      l10n.t(
        'The workspace setting gatewayStudio.video.outputFolder ("{0}") points outside the workspace. Use a workspace-relative folder there, or set an outside folder in your user settings.',
        repo,
      ),
      { field: OUTPUT_FOLDER_SETTING },
    );
  }
  // An absolute value here is the user's own (a repository's was refused above).
  if (path.isAbsolute(out)) return out;
  if (o.folder === undefined) return undefined;
  const dir = path.join(o.folder, out);
  const where = await checkInside(dir, o.roots.length ? o.roots : [o.folder]);
  if (!where.inside) {
    throw new GatewayError(
      'config',
      l10n.t(
        'The output folder {0} leads outside the workspace through a symbolic link (to {1}), so no video is written there. Remove the link, or set an outside folder in your user settings (gatewayStudio.video.outputFolder).',
        dir,
        where.real,
      ),
      { field: OUTPUT_FOLDER_SETTING },
    );
  }
  return dir;
}
