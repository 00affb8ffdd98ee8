import * as vscode from 'vscode';
import * as path from 'node:path';
import { readSettings } from '../../platform/settings';
import { settingLayers } from '../../platform/userSettings';
import { repositoryValue } from '../../shared/settingLayers';
import { outputFolderFor } from '../jobs/core/outputFolder';

/**
 * Where videos are saved: `gatewayStudio.video.outputFolder` under the first folder, or, with no
 * folder open, the folder the user picks once in this window.
 */
export class OutputFolders {
  private chosen: string | undefined;

  /** The folder for a finished task, asking for one when no folder is open and none was chosen. */
  async destination(): Promise<string | undefined> {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    // A dev container's settings (the remote machine's layer) are the repository's, like the folder's.
    const fromRepo = repositoryValue(settingLayers('video.outputFolder'), (v) => typeof v === 'string');
    const dir = await outputFolderFor({
      value: readSettings().video.outputFolder,
      repoValue: fromRepo?.value as string | undefined,
      folder: folders[0]?.uri.fsPath,
      roots: folders.map((f) => f.uri.fsPath),
    });
    if (dir !== undefined) return dir;
    if (this.chosen) return this.chosen;
    const picked = await vscode.window.showOpenDialog({
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
      openLabel: vscode.l10n.t('Save Videos Here'),
      title: vscode.l10n.t('No folder is open: where should Gateway Studio save the video?'),
    });
    this.chosen = picked?.[0]?.fsPath;
    return this.chosen;
  }

  /** Where videos go now, without asking (undefined: no folder open and none chosen yet). */
  outputDir(): string | undefined {
    const out = readSettings().video.outputFolder.trim() || 'videos';
    if (path.isAbsolute(out)) return out;
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    return folder ? path.join(folder.uri.fsPath, out) : this.chosen;
  }
}
