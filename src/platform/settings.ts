import * as vscode from 'vscode';
import type { Logger } from './log';
import { settingsFrom, type Settings } from './settingValues';

export type { Settings } from './settingValues';

export const SECTION = 'gatewayStudio';

/** Where a setting that had to be replaced by its default is reported (the extension's log). */
let report: ((problem: string) => void) | undefined;
/** Problems already logged: settings are read on every request, the log says each once. */
const reported = new Set<string>();

/** Sends the problems {@link readSettings} finds in hand-edited values to `log` (once each). */
export function logSettingProblems(log: Logger): vscode.Disposable {
  report = (problem) => {
    if (reported.has(problem)) return;
    reported.add(problem);
    log.warn(problem);
  };
  return { dispose: () => (report = undefined) };
}

/** Reads the settings now; call again after `onDidChange` rather than caching a copy. */
export function readSettings(scope?: vscode.ConfigurationScope): Settings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  return settingsFrom(
    (key) => c.get<unknown>(key),
    (problem) => report?.(problem),
  );
}

/** Fires `listener` with fresh settings whenever any `gatewayStudio.*` setting changes. */
export function onDidChangeSettings(listener: (s: Settings) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION)) listener(readSettings());
  });
}

/** Writes one setting (without the `gatewayStudio.` prefix) at user level unless told otherwise. */
export function updateSetting(key: string, value: unknown, target = vscode.ConfigurationTarget.Global): Thenable<void> {
  return vscode.workspace.getConfiguration(SECTION).update(key, value, target);
}
