import * as vscode from 'vscode';
import { type ModelOverride } from '../api/models/modelLimits';
import type { ChatParams } from '../shared/protocol';
import type { Logger } from './log';
import { userOrDefault } from './userSettings';
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
  // The utility model is billed on every commit message: the user's own choice only, never a
  // workspace's or a dev container's (src/platform/userSettings.ts).
  return settingsFrom(
    // chat.systemPrompt: the user's own only; a workspace's (or a dev container's) is a rules chip
    // (chat/prompt/vscode/workspacePrompt.ts).
    (key) => (key === 'utilityModel' || key === 'chat.systemPrompt' ? userOrDefault(key, scope) : c.get<unknown>(key)),
    (problem) => report?.(problem),
  );
}

/**
 * What the chat session reads of the settings (its `SessionSettings`, which this layer may not
 * import): the default model, system prompt and parameters, the tool rounds, the model overrides.
 */
export interface ChatSessionSettings {
  chatModel: string;
  systemPrompt: string;
  params: ChatParams;
  maxRounds: number;
  modelOverrides: Record<string, ModelOverride>;
}

export function chatSessionSettings(s: Settings = readSettings()): ChatSessionSettings {
  return {
    chatModel: s.chatModel,
    systemPrompt: s.chat.systemPrompt,
    params: chatParams(s),
    maxRounds: s.tools.maxRounds,
    modelOverrides: s.modelOverrides,
  };
}

/** The settings' chat parameters under their wire names. */
export function chatParams(s: Settings): ChatParams {
  return {
    temperature: s.chat.temperature,
    top_p: s.chat.topP,
    max_tokens: s.chat.maxTokens,
    stop: s.chat.stop.filter((x) => typeof x === 'string' && x !== ''),
    presence_penalty: s.chat.presencePenalty,
    frequency_penalty: s.chat.frequencyPenalty,
    response_format: s.chat.responseFormat === 'json_object' ? 'json_object' : 'text',
    user: s.chat.user,
    stream: s.chat.stream,
  };
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
