import * as vscode from 'vscode';
import type { Protocol } from '../api/models/modelCall';
import type { RoutingHooks } from '../api/models/modelRoute';
import { learnedProtocolsKey } from '../contracts/persistedState/platform';
import type { Logger } from './log';
import { persistedState, type StateStores } from './persistedState';
import { userValue } from './userSettings';

/**
 * The model routing every gateway client is built with: the call settings, the protocols
 * remembered in globalState and the one-time notice. Created once at activation.
 */
export class ModelRouting {
  constructor(
    private readonly stores: StateStores,
    private readonly log: Logger,
  ) {}

  /** The hooks of a client for `gateway` (its base URL, read when a protocol is remembered). */
  hooks(gateway: () => string): RoutingHooks {
    const key = (model: string) => `${gateway()} ${model}`;
    const state = persistedState(this.stores);
    // The settings' reader is loaded on the first request, not at activation.
    const calls = async () => (await import('./modelCalls')).modelCalls(this.log);
    return {
      settingsFor: async (model) => (await calls()).byId[model],
      variantsOf: async (model) => (await calls()).variants[model],
      memory: {
        get: (model) => state.get(learnedProtocolsKey)[key(model)],
        set: (model, p) => {
          const all: Record<string, Protocol> = { ...state.get(learnedProtocolsKey), [key(model)]: p };
          void state.set(learnedProtocolsKey, all);
        },
      },
      onLearned: (model) => this.learned(model),
      // The user's own setting only: a repository may not make requests cost more (a 1 h write).
      cacheTtl: () => (userValue('models.promptCacheTtl') === '1h' ? '1h' : undefined),
      // Told once per gateway, model and field; the words load with the settings' reader.
      onCacheRefused: (model, field) =>
        void import('./modelCalls').then((m) => m.cacheRefused(this.log, gateway(), model, field)),
    };
  }

  private learned(model: string): void {
    this.log.info(
      `${model} answered that it is served on the Responses API only: it is asked on /v1/responses from now on.`,
    );
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'The model "{0}" is served on the Responses API only. Gateway Studio now uses /v1/responses for it (set "protocol" in gatewayStudio.models.overrides to change this).',
        model,
      ),
    );
  }
}
