import * as vscode from 'vscode';
import { splitLayers, type InspectedSetting, type SettingLayers } from '../shared/settingLayers';

/**
 * The one way to read a `gatewayStudio.*` setting that only the user may set (addresses, insecure
 * HTTP, profiles, overrides and their headers and extraBody, spend, completion, the utility model,
 * the system prompt): `inspect()`'s layers with the user's local settings apart from the remote
 * machine's, which a dev container's repository writes (see src/shared/settingLayers.ts).
 */
export function settingLayers(key: string, scope?: vscode.ConfigurationScope): SettingLayers {
  const c = vscode.workspace.getConfiguration('gatewayStudio', scope);
  return splitLayers(c.inspect<unknown>(key) as InspectedSetting | undefined);
}

/** The user's own value of `key`, or undefined when they set none (no default, no other layer). */
export function userValue(key: string, scope?: vscode.ConfigurationScope): unknown {
  return settingLayers(key, scope).globalValue;
}

/** The user's own value of `key`, else its default; never a repository's. */
export function userOrDefault(key: string, scope?: vscode.ConfigurationScope): unknown {
  const l = settingLayers(key, scope);
  return l.globalValue !== undefined ? l.globalValue : l.defaultValue;
}
