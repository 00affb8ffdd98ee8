import * as l10n from '@vscode/l10n';
import * as z from '../shared/zod';
import { ChatAccumulator } from './chat/accumulator';
import { GatewayError, isGatewayError, readWireError } from './transport/errors';
import { HttpClient, parseJson, type HttpOptions } from './transport/http';
import { ModelRouter, isResponsesOnly, type RoutingHooks } from './models/modelRoute';
import type { ModelCallSettings } from './models/modelCall';
import type { ResponsesAnswer } from './responses/call';
import { parseModelList, type ModelRecord } from './models/models';
import { readOverflow } from './chat/overflow';
import { DONE, parseJsonEvents } from './transport/sse';
import type { ChatRequest, ChatResult, ChatStreamEvent, StreamOptions, Usage } from './chat/wire';
import type { CostPlan } from './chat/gatewayCost';
import type { PromptCache } from './chat/promptCache';

export type { ModelRecord } from './models/models';

// Each loads once and is kept: an import() resolves its module again at every call, and these
// are asked at every request.
function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
// The request's rules load with the first chat request: activation builds clients but sends none.
const requestRules = loadOnce(() => import('./chat/validation'));
// The gateway's own cost of an answer (OpenRouter, LiteLLM): loaded with the first answer too.
const costRules = loadOnce(() => import('./chat/gatewayCost'));
// Prompt caching (the editor state after the conversation, the cache fields per model family).
const cacheRules = loadOnce(() => import('./chat/promptCache'));
const responsesCall = loadOnce(() => import('./responses/call'));
const searchNotes = loadOnce(() => import('./chat/searchNotes'));

/** An answer the gateway billed (whole, or cut short with what it had sent), for the account's spend. */
export interface AnswerSeen {
  /** The model asked for, which relays bill by. */
  model: string;
  usage?: Usage;
}

/** What a client is built with besides its options; nothing is set on a client after it is built. */
export interface ClientHooks {
  /** Told of every answer after it ended (src/platform/usageEvents.ts); it cannot fail the call. */
  readonly observer?: (a: AnswerSeen) => void;
  /** Per-model settings, variants and learnt protocols (modelRoute.ts). */
  readonly routing?: RoutingHooks;
  /**
   * Where the account found this gateway's balance (`openrouter`, `litellm`, …), asked at each
   * request: with the host, it decides whose per-answer cost is read (chat/gatewayCost.ts), and
   * only OpenRouter is asked `usage: {include: true}`.
   */
  readonly billingSource?: () => string | undefined;
}

/**
 * The gateway's chat and model endpoints. One instance per configuration (base URL + key); it
 * remembers that the gateway rejected `stream_options` so later calls do not pay for the retry.
 */
export class GatewayClient {
  readonly http: HttpClient;
  /** Per-model protocol, body and variants (modelRoute.ts). */
  readonly models: ModelRouter;
  private readonly observer: ((a: AnswerSeen) => void) | undefined;
  private readonly billingSource: ClientHooks['billingSource'];
  private streamOptionsRejected = false;
  private readonly routing: RoutingHooks | undefined;
  private cache: Promise<PromptCache> | undefined;

  constructor(o: HttpOptions, hooks: ClientHooks = {}) {
    this.http = new HttpClient(o);
    this.models = new ModelRouter(hooks.routing);
    this.routing = hooks.routing;
    this.observer = hooks.observer;
    this.billingSource = hooks.billingSource;
  }

  /** This request's handling of the gateway's own cost (chat/gatewayCost.ts). */
  private async costPlan(): Promise<CostPlan> {
    return (await costRules()).costPlan(this.http.baseUrl, this.billingSource?.());
  }

  /** This client's prompt caching (chat/promptCache.ts), made with the first request. */
  private promptCache(): Promise<PromptCache> {
    return (this.cache ??= cacheRules().then(
      (m) => new m.PromptCache(this.routing, (w) => this.http.log('warn', `prompt cache: ${w}`)),
    ));
  }

  /** `GET /v1/models`: records validated, capabilities and modalities kept, invalid records dropped (and logged). */
  async listModels(signal?: AbortSignal): Promise<ModelRecord[]> {
    const body = await this.http.json('GET', '/models', z.unknown(), { signal });
    return await this.models.withVariants(parseModelList(body, (why) => this.http.log('warn', `ignored ${why}`)));
  }

  private async seen(req: ChatRequest, r: ChatResult | undefined): Promise<void> {
    if (!r || !this.observer) return;
    const model = await this.models.wireModel(req.model).catch(() => req.model);
    // The cached share in OpenAI's field, whichever dialect the relay reported it in.
    const usage = r.usage && (await cacheRules()).withCachedTokens(r.usage);
    try {
      this.observer({ model, usage });
    } catch (e) {
      this.http.log('warn', `the answer observer failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Runs a chat call and tells the observer about what it returned (or the partial answer of a failure). */
  private async observed(req: ChatRequest, call: () => Promise<ChatResult>): Promise<ChatResult> {
    try {
      const r = await call();
      // Sources under the text and the searches' line: only a web-searching answer loads this.
      if (r.citations || r.webSearches) (await searchNotes()).presentSearch(r);
      await this.seen(req, r);
      return r;
    } catch (e) {
      if (isGatewayError(e)) await this.seen(req, e.partial);
      throw e;
    }
  }

  /** A non-streaming chat completion. Validates the request first (spec 2.1, 8). */
  chat(req: ChatRequest, signal?: AbortSignal, o: { retry?: boolean } = {}): Promise<ChatResult> {
    return this.observed(req, () => this.chatOnce(req, signal, o));
  }

  private async chatOnce(req: ChatRequest, signal?: AbortSignal, o: { retry?: boolean } = {}): Promise<ChatResult> {
    (await requestRules()).validateChatRequest(req);
    const s = await this.callSettings(req.model);
    const viaResponses = () =>
      this.responses(
        req,
        s,
        async (body) => (await responsesCall()).postResponses(this.http, body, signal, o.retry),
        false,
      );
    if (this.models.protocol(req.model, s) === 'responses') return viaResponses();
    const { stream_options: _drop, ...rest } = req;
    const cost = await this.costPlan();
    const cache = await this.promptCache();
    let res: Response;
    try {
      res = await cache.chat(req.model, s.promptCache, this.models.chatBody({ ...rest, stream: false }, s), (body) =>
        this.http.request('POST', '/chat/completions', {
          body: cost.ask(body),
          signal,
          ...(o.retry === false ? { retry: false } : {}),
        }),
      );
    } catch (e) {
      if (!isResponsesOnly(e)) throw e;
      this.models.learn(req.model, s);
      return viaResponses();
    }
    const text = await this.http.text(res, { signal });
    return cost.settle(completionToResult(parseJson(text, z.unknown(), 'POST', '/v1/chat/completions')), res.headers);
  }

  /** The model's call settings; an entry the settings refused fails the call, naming the setting. */
  private async callSettings(model: string): Promise<ModelCallSettings> {
    const s = await this.models.settings(model);
    if (s.problem) throw new GatewayError('config', s.problem, { field: 'gatewayStudio.models.overrides' });
    return s;
  }

  /**
   * The same request over `/v1/responses`: once more without `reasoning`/`include` when the
   * gateway refuses them (a model that does not reason), remembered for the model.
   */
  private async responses(
    req: ChatRequest,
    s: ModelCallSettings,
    send: (body: Record<string, unknown>) => Promise<ResponsesAnswer>,
    stream: boolean,
  ): Promise<ChatResult> {
    const wireModel = s.wireModel ?? req.model;
    const cache = await this.promptCache();
    const { withEnvironmentPlaced } = await cacheRules();
    const body = async () => this.models.responsesBody(withEnvironmentPlaced(req), stream, s);
    const keyed = async () => cache.responses(req.model, s.promptCache, req.cacheKey, await body(), send);
    let answer: ResponsesAnswer;
    try {
      answer = await keyed();
    } catch (e) {
      if (this.models.reasoningDropped(wireModel) || !(await responsesCall()).isReasoningRefusal(e)) throw e;
      this.http.log('warn', `responses request for ${wireModel} refused its reasoning fields; sending without them`);
      this.models.dropReasoning(wireModel);
      answer = await keyed();
    }
    this.models.rememberReasoning(wireModel, answer.result.message, answer.reasoning);
    if (answer.reasoning.length > 0)
      answer.result.message.encrypted_reasoning = { model: wireModel, items: [...answer.reasoning] };
    return answer.result;
  }

  /**
   * A streaming chat completion. Sends `stream_options.include_usage`, and once without it if the
   * gateway answers 400/422. Retries happen only before the first byte. A stream that ends without
   * a `finish_reason` (even after `[DONE]`) throws `truncated`; a stop through the signal throws
   * `aborted`; both carry the text received so far in `partial`.
   */
  streamChat(req: ChatRequest, o: StreamOptions = {}): Promise<ChatResult> {
    return this.observed(req, () => this.streamChatOnce(req, o));
  }

  private async streamChatOnce(req: ChatRequest, o: StreamOptions = {}): Promise<ChatResult> {
    (await requestRules()).validateChatRequest(req);
    const s = await this.callSettings(req.model);
    // The Responses code is loaded on its first use: not needed at activation.
    const viaResponses = () =>
      this.responses(req, s, async (body) => (await responsesCall()).streamResponses(this.http, body, o), true);
    if (this.models.protocol(req.model, s) === 'responses') return viaResponses();
    try {
      return await this.streamChatCompletions(req, s, o);
    } catch (e) {
      // Refused before any byte arrived: the same request goes to `/v1/responses` from now on.
      if (!isResponsesOnly(e)) throw e;
      this.models.learn(req.model, s);
      return viaResponses();
    }
  }

  private async streamChatCompletions(req: ChatRequest, s: ModelCallSettings, o: StreamOptions): Promise<ChatResult> {
    const { signal, onEvent } = o;
    const { stream_options: _drop, ...rest } = req;
    const [cost, cache] = [await this.costPlan(), await this.promptCache()];
    const usage = { stream: true, stream_options: { include_usage: true } };
    const send = (withUsage: boolean) =>
      cache.chat(
        req.model,
        s.promptCache,
        this.models.chatBody({ ...rest, ...(withUsage ? usage : { stream: true }) }, s),
        (body) =>
          this.http.request('POST', '/chat/completions', {
            body: cost.ask(body),
            signal,
            accept: 'text/event-stream',
            onRetry: (i) =>
              onEvent?.({ type: 'retry', attempt: i.attempt, delayMs: i.delayMs, message: i.error.message }),
          }),
      );
    let res: Response;
    if (this.streamOptionsRejected) {
      res = await send(false);
    } else {
      try {
        res = await send(true);
      } catch (e) {
        if (!isGatewayError(e) || (e.status !== 400 && e.status !== 422) || isResponsesOnly(e)) throw e;
        // A refusal that names another field (tool_choice, temperature…) is not about
        // stream_options: sending again without it would only fail the same way.
        if (e.param && !e.param.startsWith('stream_options')) throw e;
        // Nor is a context overflow (llama.cpp's has no `param`): the same prompt would only be
        // refused again, after the server read it all once more.
        if (readOverflow(e)) throw e;
        this.http.log(
          'warn',
          `chat stream rejected with ${e.status} (${e.message}); retrying once without stream_options`,
        );
        res = await send(false);
        this.streamOptionsRejected = true;
      }
    }

    // A gateway that ignores `stream: true` answers one JSON completion.
    if ((res.headers.get('content-type') ?? '').includes('application/json')) {
      const result = completionToResult(
        parseJson(await this.http.text(res, { signal }), z.unknown(), 'POST', '/v1/chat/completions'),
      );
      replay(result, onEvent);
      return cost.settle(result, res.headers);
    }

    const acc = new ChatAccumulator(onEvent);
    let sawDone = false;
    try {
      const skipped = (d: string) => this.http.log('warn', `skipped a stream event that is not JSON: ${d}`);
      for await (const ev of parseJsonEvents(this.http.body(res, { signal }), skipped)) {
        if (ev === DONE) {
          sawDone = true;
          break;
        }
        const { json, error } = ev;
        acc.push(error && !(typeof json === 'object' && json !== null && 'error' in json) ? { error: json } : json);
      }
    } catch (e) {
      if (!isGatewayError(e)) throw e;
      const partial = e.partial ?? acc.result();
      if (e.kind === 'network') {
        throw new GatewayError(
          'truncated',
          l10n.t('The connection broke before the answer was complete ({0}).', e.message),
          { partial, cause: e },
        );
      }
      throw e.with({ partial });
    }
    if (!acc.finished) {
      throw new GatewayError(
        'truncated',
        sawDone
          ? l10n.t('The stream ended with [DONE] but without a finish_reason, so the answer may be incomplete.')
          : l10n.t('The stream ended before the answer was complete.'),
        { partial: acc.result() },
      );
    }
    return cost.settle(acc.result(), res.headers);
  }
}

/** Non-streaming answers go through the same accumulator so both paths share every tolerance. */
function completionToResult(body: unknown): ChatResult {
  const acc = new ChatAccumulator();
  const wire = typeof body === 'object' && body !== null && 'error' in body ? readWireError(body) : undefined;
  if (wire) {
    throw new GatewayError('server', l10n.t('The gateway answered 200 with an error: {0}', wire.message ?? ''), {
      type: wire.type,
      code: wire.code,
      param: wire.param ?? null,
    });
  }
  if (typeof body === 'object' && body !== null && Array.isArray((body as { choices?: unknown }).choices)) {
    const b = body as { choices: Array<Record<string, unknown>> };
    // Complete messages list calls without `index`; give them their position so none are merged.
    const choices = b.choices.map((c) => {
      const m = c.message as { tool_calls?: unknown } | undefined;
      if (m && Array.isArray(m.tool_calls)) {
        return {
          ...c,
          message: {
            ...m,
            tool_calls: m.tool_calls.map((t: unknown, i) =>
              typeof t === 'object' && t !== null ? { index: i, ...t } : t,
            ),
          },
        };
      }
      return c;
    });
    acc.push({ ...b, choices });
    if (choices.length === 0) throw new GatewayError('invalid_response', l10n.t('The chat answer has no choices.'));
  } else {
    acc.push(body);
    throw new GatewayError('invalid_response', l10n.t('The chat answer has no "choices" array.'));
  }
  return acc.result();
}

/** Streams callers expect events even when the gateway answered in one piece. */
function replay(r: ChatResult, onEvent?: (e: ChatStreamEvent) => void): void {
  if (!onEvent) return;
  if (r.model) onEvent({ type: 'model', model: r.model });
  if (r.message.reasoning_content) onEvent({ type: 'reasoning', text: r.message.reasoning_content });
  if (r.message.content) onEvent({ type: 'text', text: r.message.content });
  r.message.tool_calls?.forEach((t, index) =>
    onEvent({ type: 'tool_call', index, id: t.id, name: t.function.name, argumentsDelta: t.function.arguments }),
  );
  if (r.usage) onEvent({ type: 'usage', usage: r.usage });
  if (r.finishReason) onEvent({ type: 'finish', reason: r.finishReason });
}
