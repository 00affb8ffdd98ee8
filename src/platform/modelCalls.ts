import * as vscode from 'vscode';
import { settingLayers } from './userSettings';
import type { ModelCalls } from '../api/models/modelCall';
import type { Logger } from './log';

const SETTING = 'gatewayStudio.models.overrides';

let cached: { raw: string; calls: ModelCalls } | undefined;
const told = new Set<string>();

/**
 * The call fields of `gatewayStudio.models.overrides` (protocol, extraBody, reasoningEffort,
 * sampling, variants, promptCache), from the user's own settings only: a repository's `.vscode/settings.json`
 * could otherwise change what every request is billed for or where it is kept (`store`). A
 * workspace value of these fields is ignored and the log says so; problems are logged and shown
 * once each, naming the setting.
 */
export async function modelCalls(log: Logger): Promise<ModelCalls> {
  const { readModelCalls } = await import('../api/models/modelCall');
  const info = settingLayers('models.overrides');
  const raw = JSON.stringify(info.globalValue ?? {});
  if (cached?.raw !== raw) {
    cached = { raw, calls: readModelCalls(info.globalValue ?? {}, SETTING) };
    const ws = [info.remoteValue, info.workspaceValue, info.workspaceFolderValue].some((v) =>
      Object.values((v ?? {}) as Record<string, unknown>).some(
        (e) =>
          typeof e === 'object' &&
          e !== null &&
          [
            'protocol',
            'extraBody',
            'reasoningEffort',
            'variants',
            'temperature',
            'topP',
            'maxTokens',
            'promptCache',
            'webSearch',
          ].some((k) => k in e),
      ),
    );
    if (ws)
      log.warn(
        `${SETTING}: a workspace's or the remote machine's protocol, body, effort, sampling, variants and prompt cache are ignored (user settings only).`,
      );
    for (const p of cached.calls.problems) {
      log.warn(p);
      if (told.has(p)) continue;
      told.add(p);
      void vscode.window.showWarningMessage(vscode.l10n.t('Gateway Studio: a model setting was refused. {0}', p));
    }
  }
  return cached.calls;
}

/** The cache refusals already told, by gateway, model and field: once per window. */
const toldCache = new Set<string>();

/** A gateway refused a prompt-cache field for a model (api/chat/promptCache.ts): logged, and told once. */
export function cacheRefused(log: Logger, gateway: string, model: string, field: string): void {
  const key = `${gateway} ${model} ${field}`;
  if (toldCache.has(key)) return;
  toldCache.add(key);
  log.info(`${gateway} refused ${field} for ${model}: its requests go without it from now on.`);
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'The gateway refused prompt caching ({0}) for the model "{1}": Gateway Studio sent the request again without it and leaves it out from now on. Set "promptCache" in gatewayStudio.models.overrides to choose another way.',
      field,
      model,
    ),
  );
}
