/**
 * What every image command reads from VS Code: the catalog in effect (the user's override only)
 * and the output folder (`gatewayStudio.images.outputFolder`, checked by ../core/outputFolder).
 */
import * as vscode from 'vscode';
import { CATALOG_SETTING, loadCatalog, type Catalog } from '../../../api/catalog/catalog';
import type { Services } from '../../../platform/services';
import { settingLayers } from '../../../platform/userSettings';
import { repositoryValue } from '../../../shared/settingLayers';
import { imageFolderFor } from '../../jobs/core/outputFolder';

/** The catalog in effect; each problem with the user's override is logged and shown once per run. */
export function imageCatalog(s: Services): Catalog {
  const loaded = loadCatalog(settingLayers('media.catalogOverrides'), CATALOG_SETTING);
  for (const p of loaded.problems) s.log.warn(p);
  if (loaded.problems.length) void vscode.window.showWarningMessage(loaded.problems.join(' '));
  return loaded.catalog;
}

/** The file-system workspace folders. */
export function fileFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/** The output folder; undefined when no folder is open; throws when a workspace value leads out. */
export async function imageOutputFolder(): Promise<string | undefined> {
  const folders = fileFolders();
  const fromRepo = repositoryValue(settingLayers('images.outputFolder'), (v) => typeof v === 'string');
  const value = vscode.workspace.getConfiguration('gatewayStudio').get<string>('images.outputFolder') ?? '';
  return imageFolderFor({
    value,
    repoValue: fromRepo?.value as string | undefined,
    folder: folders[0],
    roots: folders,
  });
}
