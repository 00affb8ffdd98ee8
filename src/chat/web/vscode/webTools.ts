import * as vscode from 'vscode';
import type { Services } from '../../../platform/services';
import { settingLayers } from '../../../platform/userSettings';
import type { Tool } from '../../tools/core/runner';
import { readAllowedHosts } from '../core/addressRule';
import { DomainTrust } from '../core/domainTrust';
import { fetchUrlTool } from '../core/fetchUrlTool';

const SETTING = 'gatewayStudio.web.allowPrivateHosts';

/**
 * The web tools of the chat: fetch_url, with its domain approvals in the user's global state and
 * the private hosts the user allowed read from their own settings only (a repository's value, or
 * a dev container's, is ignored and the log says so). Problems in the setting are said once each.
 */
export function webTools(s: Services): Tool[] {
  const trust = new DomainTrust(s.context.globalState);
  const told = new Set<string>();
  const say = (line: string, show: boolean) => {
    if (told.has(line)) return;
    told.add(line);
    s.log.warn(line);
    if (show) void vscode.window.showWarningMessage(vscode.l10n.t('Gateway Studio: {0}', line));
  };
  const allowedHosts = () => {
    const layers = settingLayers('web.allowPrivateHosts');
    if ([layers.remoteValue, layers.workspaceValue, layers.workspaceFolderValue].some((v) => v !== undefined))
      say(`${SETTING}: a workspace's or the remote machine's value is ignored (user settings only).`, false);
    const { hosts, problems } = readAllowedHosts(layers.globalValue);
    for (const p of problems) say(`${SETTING}: ${p}.`, true);
    return hosts;
  };
  return [fetchUrlTool({ trust, allowedHosts })];
}

/** Gateway Studio: Manage Web Domains: the allowed domains, the ones the user unticks forgotten. */
export async function manageWebDomains(s: Services): Promise<void> {
  const trust = new DomainTrust(s.context.globalState);
  const domains = trust.domains();
  if (domains.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('fetch_url asks before reading from any domain: none is allowed without asking yet.'),
    );
    return;
  }
  const picked = await vscode.window.showQuickPick(
    domains.map((d) => ({ label: d, picked: true })),
    {
      canPickMany: true,
      title: vscode.l10n.t('Domains fetch_url may read without asking (in every workspace)'),
      placeHolder: vscode.l10n.t('Untick a domain to be asked again before the next fetch from it'),
    },
  );
  if (!picked) return;
  const kept = new Set(picked.map((p) => p.label));
  for (const d of domains) if (!kept.has(d)) await trust.forget(d);
}
