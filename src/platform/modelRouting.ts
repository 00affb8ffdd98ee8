import * as vscode from 'vscode';
import type { GatewayClient } from '../api/client';
import type { Protocol } from '../api/models/modelCall';
import { learnedProtocolsKey } from '../contracts/persistedState/platform';
import { persistedState } from './persistedState';
import type { Services } from './services';

/** Connects a new client to the settings, the remembered protocols and the one-time notice. */
export function configureModelRouting(s: Services, client: GatewayClient): void {
  const key = (model: string) => `${client.http.baseUrl} ${model}`;
  const state = persistedState(s.context);
  // The settings' reader is loaded on the first request, not at activation.
  const calls = async () => (await import('./modelCalls')).modelCalls(s);
  client.models.settingsFor = async (model) => (await calls()).byId[model];
  client.models.variantsOf = async (model) => (await calls()).variants[model];
  client.models.memory = {
    get: (model) => state.get(learnedProtocolsKey)[key(model)],
    set: (model, p) => {
      const all: Record<string, Protocol> = { ...state.get(learnedProtocolsKey), [key(model)]: p };
      void state.set(learnedProtocolsKey, all);
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
