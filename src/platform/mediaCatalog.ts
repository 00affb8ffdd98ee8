/**
 * The media catalog in effect (src/api/catalog): the shipped one with the user's own override
 * (`gatewayStudio.media.catalogOverrides`, user settings only: a repository cannot widen what a
 * model takes). Read on every use, so an edited override applies at once; each problem with it
 * is logged and shown once per distinct text, never on every video or image request.
 */
import * as vscode from 'vscode';
import { CATALOG_SETTING, loadCatalog, type Catalog } from '../api/catalog/catalog';
import { settingLayers } from './userSettings';

let lastProblems = '';

export function mediaCatalog(log: { warn(line: string): void }): Catalog {
  const loaded = loadCatalog(settingLayers('media.catalogOverrides'), CATALOG_SETTING);
  const text = loaded.problems.join(' ');
  if (text !== lastProblems) {
    lastProblems = text;
    for (const p of loaded.problems) log.warn(p);
    if (text) void vscode.window.showWarningMessage(text);
  }
  return loaded.catalog;
}
