import * as vscode from 'vscode';
import type { GatewayClient } from '../api/client';
import { readModelCalls, type ModelCalls, type Protocol } from '../api/modelCall';
import type { Services } from './services';

/** globalState: per gateway and model, the protocol a refusal taught (`"<base URL> <model>": "responses"`). */
const PROTOCOLS_KEY = 'gatewayStudio.models.learnedProtocols';
const SETTING = 'gatewayStudio.models.overrides';

let cached: { raw: string; calls: ModelCalls } | undefined;
const told = new Set<string>();

/**
 * The call fields of `gatewayStudio.models.overrides` (protocol, extraBody, reasoningEffort,
 * sampling, variants), from the user's own settings only: a repository's `.vscode/settings.json`
 * could otherwise change what every request is billed for or where it is kept (`store`). A
 * workspace value of these fields is ignored and the log says so; problems are logged and shown
 * once each, naming the setting.
 */
export function modelCalls(s: Services): ModelCalls {
  const info = vscode.workspace.getConfiguration('gatewayStudio').inspect<unknown>('models.overrides');
  const raw = JSON.stringify(info?.globalValue ?? {});
  if (cached?.raw !== raw) {
    cached = { raw, calls: readModelCalls(info?.globalValue ?? {}, SETTING) };
    const ws = [info?.workspaceValue, info?.workspaceFolderValue].some((v) =>
      Object.values((v ?? {}) as Record<string, unknown>).some(
        (e) =>
          typeof e === 'object' &&
          e !== null &&
          ['protocol', 'extraBody', 'reasoningEffort', 'variants', 'temperature', 'topP', 'maxTokens'].some(
            (k) => k in e,
          ),
      ),
    );
    if (ws)
      s.log.warn(
        `${SETTING}: protocol, extraBody, reasoningEffort, sampling and variants are read from user settings only; the workspace's are ignored.`,
      );
    for (const p of cached.calls.problems) {
      s.log.warn(p);
      if (told.has(p)) continue;
      told.add(p);
      void vscode.window.showWarningMessage(vscode.l10n.t('Gateway Studio: a model setting was refused. {0}', p));
    }
  }
  return cached.calls;
}

/** Connects a new client to the settings, the remembered protocols and the one-time notice. */
export function configureModelRouting(s: Services, client: GatewayClient): void {
  const key = (model: string) => `${client.http.baseUrl} ${model}`;
  const state = s.context.globalState;
  client.models.settingsFor = (model) => modelCalls(s).byId[model];
  client.models.variantsOf = (model) => modelCalls(s).variants[model];
  client.models.memory = {
    get: (model) => state.get<Record<string, Protocol>>(PROTOCOLS_KEY)?.[key(model)],
    set: (model, p) => {
      const all = { ...(state.get<Record<string, Protocol>>(PROTOCOLS_KEY) ?? {}), [key(model)]: p };
      void state.update(PROTOCOLS_KEY, all);
    },
  };
  client.models.onLearned = (model) => {
    s.log.info(
      `${model} answered that it is served on the Responses API only: it is asked on /v1/responses from now on.`,
    );
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'The model "{0}" is served on the Responses API only. Gateway Studio now uses /v1/responses for it (set "protocol" in gatewayStudio.models.overrides to change this).',
        model,
      ),
    );
  };
}
