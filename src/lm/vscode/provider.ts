import * as vscode from 'vscode';
import type { GatewayClient } from '../../api/client';
import { GatewayError, isGatewayError } from '../../api/transport/errors';
import { getGatewayClient, showGatewayError } from '../../platform/gateway';
import type { Services } from '../../platform/services';
import { uniqueToolCallIds } from '../../api/chat/toolCallIds';
import { readSettings } from '../../platform/settings';
import { answerLmRequest, RequiredChoiceRefusals } from '../answer/core/answer';
import { lmFailure, lmLogText } from '../answer/core/failure';
import { buildLmRequest, callIdsIn, parseToolArguments } from '../messages/core/messages';
import { ReasoningMemory } from '../answer/core/reasoningMemory';
import { thinkingPartClass, type ThinkingPartClass } from './thinking';
import { estimateTokens } from '../messages/core/tokens';
import { LmModelCache, type LmModelInfo } from '../models/core/models';
import { DEFAULT_PROFILE_ID } from '../../api/transport/profiles';
import { offeredAsDefault, profileModelId, splitProfileModelId } from '../../api/models/profileModels';

/** How long a model list is reused while neither the key nor the base URL changed. */
const MODEL_LIST_TTL_MS = 5 * 60_000;

/**
 * The gateway's chat models in VS Code's language-model API (and so its model picker): listed
 * from `GET /v1/models`, answered by streaming `/v1/chat/completions` through the product's
 * client, so retries, the idle watchdog, proxy support and the error words are the chat panel's.
 */
export class GatewayLanguageModels implements vscode.LanguageModelChatProvider<LmModelInfo>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly subs: vscode.Disposable[] = [];
  private readonly models = new LmModelCache(MODEL_LIST_TTL_MS);
  /** The model lists of the profiles other than Default, by profile id. */
  private readonly profileModels = new Map<string, LmModelCache>();
  /** Gateways (clients) that refused tool_choice "required", per model, for the session. */
  private readonly refusals = new RequiredChoiceRefusals();
  private readonly reasoning = new ReasoningMemory();
  /** The last "why no models" line, so a picker that asks every few seconds does not flood the log. */
  private lastNotice = '';
  /**
   * Whether VS Code ever asked for the list. VS Code re-reads the list as soon as the change event
   * fires; firing it before anyone asked would only send a `GET /v1/models` nobody reads.
   */
  private asked = false;

  /**
   * @param thinkingPart VS Code's thinking part class, looked up on each answer (thinking.ts); a
   *   test passes one that finds none, as an older VS Code would.
   */
  constructor(
    private readonly s: Services,
    private readonly thinkingPart: () => ThinkingPartClass | undefined = thinkingPartClass,
  ) {
    this.subs.push(
      s.keys.onDidChange(() => this.invalidate('the API key changed')),
      s.profiles.onDidChange(() => this.invalidate('the gateway profiles changed')),
      s.profiles.onDidChangeKey(() => this.invalidate("a profile's key changed")),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('gatewayStudio.baseUrl')) this.invalidate('the base URL changed');
        if (e.affectsConfiguration('gatewayStudio.models.overrides')) this.invalidate('the model overrides changed');
      }),
    );
  }

  /** Drops the cached list and, if VS Code has asked for it before, tells VS Code to ask again. */
  invalidate(why: string): void {
    this.models.invalidate();
    for (const c of this.profileModels.values()) c.invalidate();
    this.lastNotice = '';
    if (!this.asked) return;
    this.s.log.debug(`Language models: refreshing the list (${why})`);
    this.changed.fire();
  }

  private notice(line: string): void {
    if (line === this.lastNotice) return;
    this.lastNotice = line;
    this.s.log.info(line);
  }

  /**
   * Default's models under their own ids (as before profiles), then every other profile's that has
   * a key, as `profile|model` (api/profileIds.ts says why) named "model · profile": two profiles' same id stay apart.
   */
  async provideLanguageModelChatInformation(
    options: vscode.PrepareLanguageModelChatModelOptions,
    token: vscode.CancellationToken,
  ): Promise<LmModelInfo[]> {
    const all = await this.defaultModels(options, token);
    // A Default id holding the profile mark would read as another profile's model (api/profileIds).
    const own = all.filter((m) => offeredAsDefault(m.id));
    const hidden = all.filter((m) => !offeredAsDefault(m.id)).map((m) => m.id);
    if (hidden.length)
      this.notice(
        `Language models: not offered, as their ids would name another gateway profile: ${hidden.join(', ')}`,
      );
    const others = await Promise.all(
      this.s.profiles
        .list()
        .profiles.filter((p) => p.id !== DEFAULT_PROFILE_ID && p.problems.length === 0)
        .map(async (p) => {
          if (!(await this.s.profiles.keyOf(p.id))) return [];
          let cache = this.profileModels.get(p.id);
          if (!cache) this.profileModels.set(p.id, (cache = new LmModelCache(MODEL_LIST_TTL_MS)));
          try {
            const client = await getGatewayClient(this.s, 'chat', p.id);
            const models = cache.cached(client) ?? (await cache.load(client, undefined, readSettings().modelOverrides));
            return models.map((m) => ({ ...m, id: profileModelId(p.id, m.id), name: `${m.name} · ${p.name}` }));
          } catch (e) {
            this.notice(`Language models: profile ${p.name} offers none: ${lmLogText(e)}`);
            return [];
          }
        }),
    );
    return [...own, ...others.flat()];
  }

  private async defaultModels(
    options: vscode.PrepareLanguageModelChatModelOptions,
    token: vscode.CancellationToken,
  ): Promise<LmModelInfo[]> {
    this.asked = true;
    let key = await this.s.profiles.keyOf(DEFAULT_PROFILE_ID);
    if (!key && !options.silent) {
      // Asked from the "Manage Models" flow: the user expects to be asked for what is missing.
      await vscode.commands.executeCommand('gatewayStudio.setApiKey');
      key = await this.s.profiles.keyOf(DEFAULT_PROFILE_ID);
    }
    if (!key) {
      this.notice(
        'Language models: no API key is set, so VS Code is offered no gateway models (run "Gateway Studio: Set API Key").',
      );
      return [];
    }
    let client: GatewayClient;
    try {
      client = await getGatewayClient(this.s, 'chat', DEFAULT_PROFILE_ID);
    } catch (e) {
      this.notice(`Language models: none offered: ${lmLogText(e)}`);
      return [];
    }
    const cached = this.models.cached(client);
    if (cached) return cached;
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      const models = await this.models.load(client, abort.signal, readSettings().modelOverrides);
      this.notice(
        `Language models: ${models.length} gateway chat model(s) offered to VS Code: ${models.map((m) => m.id).join(', ') || '(none)'}`,
      );
      return models;
    } catch (e) {
      if (token.isCancellationRequested) return [];
      this.notice(`Language models: could not list the gateway's models, so none are offered. ${lmLogText(e)}`);
      if (!options.silent) showGatewayError(this.s, e);
      return [];
    } finally {
      sub.dispose();
    }
  }

  async provideLanguageModelChatResponse(
    model: LmModelInfo,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      // A `profile|model` id answers on that profile, with its key; an id without the mark on
      // Default; one whose profile is gone on none (never on another gateway instead).
      const target = splitProfileModelId(model.id, this.s.profiles.list().profiles);
      if (!target)
        throw new GatewayError(
          'config',
          vscode.l10n.t(
            'The model "{0}" belongs to a gateway profile that is no longer configured, so nothing was sent.',
            model.id,
          ),
        );
      const client = await getGatewayClient(this.s, 'chat', target.profile);
      const { request, dropped } = buildLmRequest(messages, {
        modelId: target.model,
        acceptsImages: model.capabilities.imageInput === true,
        reasoningFor: (_id, call) => this.reasoning.get(call),
        tools: options.tools,
        toolMode: options.toolMode,
        modelOptions: options.modelOptions as Readonly<Record<string, unknown>> | undefined,
      });
      if (dropped.length > 0)
        this.s.log.debug(`Language models: left out of the request to ${model.id}: ${dropped.join('; ')}`);
      const Thinking = this.thinkingPart();
      const result = await answerLmRequest(client, request, {
        // The chat panel's setting: a gateway that cannot stream cannot stream here either.
        stream: readSettings().chat.stream,
        signal: abort.signal,
        log: (msg) => this.s.log.info(`Language models: ${msg}`),
        refusals: this.refusals,
        onEvent: (e) => {
          if (e.type === 'text') progress.report(new vscode.LanguageModelTextPart(e.text));
          else if (e.type === 'reasoning' && Thinking)
            progress.report(new Thinking(e.text) as vscode.LanguageModelResponsePart);
          else if (e.type === 'retry')
            this.s.log.warn(`Language models: ${model.id}: retry ${e.attempt} in ${e.delayMs} ms (${e.message})`);
        },
      });
      const calls = result.message.tool_calls ?? [];
      // Relays that number calls per answer send `call_0` again in a later answer; VS Code and the
      // caller tell results apart by id, so a reused id gets a suffix (the chat panel's scheme).
      const ids = uniqueToolCallIds(
        calls.map((c) => c.id),
        callIdsIn(messages),
      );
      // Parsed before any is reported, so that a caller never runs half of a broken set of calls.
      const parts = calls.map(
        (c, i) =>
          new vscode.LanguageModelToolCallPart(
            ids[i] ?? c.id,
            c.function.name,
            parseToolArguments(c.function.name, c.function.arguments),
          ),
      );
      this.reasoning.remember(parts, result.message.reasoning_content);
      for (const p of parts) progress.report(p);
      if (result.finishReason && result.finishReason !== 'stop' && result.finishReason !== 'tool_calls') {
        this.s.log.info(`Language models: ${model.id} finished with "${result.finishReason}"`);
      }
    } catch (e) {
      if (token.isCancellationRequested || isGatewayError(e, 'aborted')) throw new vscode.CancellationError();
      this.s.log.error(`Language models: ${model.id}: ${lmLogText(e)}`);
      // The caller (Copilot Chat, another extension) shows only the message: it carries the
      // product's words, which say what to do (set the key, pick another model, …).
      const f = lmFailure(e, model.id);
      // A model that answers 404 may have left the gateway: list again so the picker drops it.
      if (f.refreshModels) this.invalidate(`${model.id} answered 404`);
      throw new Error(f.message, { cause: e instanceof GatewayError ? e : undefined });
    } finally {
      sub.dispose();
    }
  }

  provideTokenCount(_model: LmModelInfo, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    // An estimate (characters / 4, images a flat amount): the gateway's tokenizers are unknown here.
    return Promise.resolve(estimateTokens(text));
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
    this.changed.dispose();
  }
}
