/**
 * The command rules from the settings: `gatewayStudio.tools.commandRules` from the user's own
 * settings only (allow, ask, deny; a workspace's or dev container's value is never read), and
 * `gatewayStudio.tools.workspaceCommandRules` from any layer, where only ask and deny count (a
 * repository may make commands ask or refuse them, never run them unasked).
 */
import * as vscode from 'vscode';
import type { CustomizationSource, CustomizationSourceProvider } from '../../../contracts/customizations';
import { REPOSITORY_LAYERS } from '../../../shared/settingLayers';
import { settingLayers } from '../../../platform/userSettings';
import { readCommandRules, type CommandRule } from '../core/commandRules';

const USER_KEY = 'tools.commandRules';
const WORKSPACE_KEY = 'tools.workspaceCommandRules';

interface Read {
  rules: CommandRule[];
  sources: CustomizationSource[];
}

function readAll(): Read {
  const rules: CommandRule[] = [];
  const sources: CustomizationSource[] = [];
  const add = (value: unknown, scope: CommandRule['scope'], key: string, layer: string) => {
    if (value === undefined) return;
    const read = readCommandRules(value, scope, `gatewayStudio.${key}`);
    rules.push(...read.rules);
    sources.push({
      kind: 'commandRules',
      name: `gatewayStudio.${key} (${layer})`,
      path: `gatewayStudio.${key}`,
      scope,
      state: read.rules.length ? 'applies' : 'off',
      why: read.rules.length
        ? vscode.l10n.t('{0} rule(s) for run_command.', read.rules.length)
        : vscode.l10n.t('No usable rules.'),
      problems: read.problems,
    });
  };
  add(settingLayers(USER_KEY).globalValue, 'user', USER_KEY, vscode.l10n.t('user settings'));
  const ws = settingLayers(WORKSPACE_KEY);
  add(ws.globalValue, 'workspace', WORKSPACE_KEY, vscode.l10n.t('user settings'));
  for (const layer of REPOSITORY_LAYERS) add(ws[layer], 'workspace', WORKSPACE_KEY, layerName(layer));
  return { rules, sources };
}

function layerName(layer: (typeof REPOSITORY_LAYERS)[number]): string {
  switch (layer) {
    case 'remoteValue':
      return vscode.l10n.t('remote machine settings');
    case 'workspaceValue':
      return vscode.l10n.t('workspace settings');
    case 'workspaceFolderValue':
      return vscode.l10n.t('folder settings');
  }
}

/** The rules as they are now (read on every call: a settings change applies at once). */
export function commandRulesNow(): CommandRule[] {
  return readAll().rules;
}

export const commandRuleSources: CustomizationSourceProvider = {
  kind: 'commandRules',
  list: () => Promise.resolve(readAll().sources),
};
