/**
 * Which protocol a model is asked on and what its request carries (modelCall.ts), decided at the
 * client's boundary: the chat, the language-model provider and every other caller send one chat
 * request and get one chat result, whichever way it travelled.
 */
import { createHash } from 'node:crypto';
import { isGatewayError } from '../transport/errors';
import type { ModelCallSettings, Protocol } from './modelCall';
import { mergeBody } from './mergeBody';
import type { AssistantMessage, ChatMessage, ChatRequest, ReasoningItem } from '../chat/wire';
import type { PromptCacheHooks } from '../chat/promptCache';

/** Where the protocols learnt from the gateway's answers are kept (globalState in the extension). */
export interface ProtocolMemory {
  get(model: string): Protocol | undefined;
  set(model: string, p: Protocol): void;
}

function memoryInProcess(): ProtocolMemory {
  const m = new Map<string, Protocol>();
  return { get: (k) => m.get(k), set: (k, p) => void m.set(k, p) };
}

/**
 * Whether a chat completions refusal says the model is served on the Responses API only. What
 * servers answer: OpenAI 404 "This model is only supported in v1/responses and not in
 * v1/chat/completions." (param `model`); Azure 400 `OperationNotSupported` "The chatCompletion
 * operation does not work with the specified model"; relays in front of Copilot
 * `unsupported_api_for_model` "… is not accessible via the /chat/completions endpoint".
 */
export function isResponsesOnly(e: unknown): boolean {
  if (!isGatewayError(e) || (e.status !== 400 && e.status !== 404 && e.status !== 405)) return false;
  return /only supported in (\/?v1)?\/responses|unsupported_api_for_model|not accessible via the \/chat\/completions|chatCompletion operation does not work|(use|supported (on|by|in)|only (on|via)) (the )?(\/?v1\/)?responses/i.test(
    `${e.message} ${e.code ?? ''}`,
  );
}

/** What a client is built with to route its models (in the extension: the settings and globalState). */
export interface RoutingHooks extends PromptCacheHooks {
  /** Per model id, what the settings say (undefined: nothing). */
  readonly settingsFor?: (model: string) => Promise<ModelCallSettings | undefined> | ModelCallSettings | undefined;
  /** Per listed model id, the ids of its variants (`<model>#<variant>`), listed after it. */
  readonly variantsOf?: (model: string) => Promise<readonly string[] | undefined> | readonly string[] | undefined;
  /** Where the protocols learnt from refusals are kept; without it, in this process only. */
  readonly memory?: ProtocolMemory;
  /** Told once per model when a chat refusal switched it to the Responses API. */
  readonly onLearned?: (model: string) => void;
}

/** The routing state of one client; its hooks are given at construction and never changed. */
export class ModelRouter {
  private readonly memory: ProtocolMemory;
  /** Models whose Responses requests go without `reasoning`/`include` (the gateway refused them). */
  private readonly noReasoning = new Set<string>();
  private readonly reasoning = new Map<string, ReasoningItem[]>();

  constructor(private readonly hooks: RoutingHooks = {}) {
    this.memory = hooks.memory ?? memoryInProcess();
  }

  async settings(model: string): Promise<ModelCallSettings> {
    return (await this.hooks.settingsFor?.(model)) ?? {};
  }

  /**
   * The model list with each variant after its model (a copy of the record under the variant's
   * id, so limits and capabilities carry over) and `reasoning_effort` on records whose model has one.
   */
  async withVariants<R extends { id: string }>(records: readonly R[]): Promise<R[]> {
    const out: R[] = [];
    const effort = async (r: R): Promise<R> => {
      const e = (await this.settings(r.id)).reasoningEffort;
      return e ? { ...r, reasoning_effort: e } : r;
    };
    for (const r of records) {
      out.push(await effort(r));
      for (const id of (await this.hooks.variantsOf?.(r.id)) ?? []) out.push(await effort({ ...r, id }));
    }
    return out;
  }

  /** The id a relay bills by: the listed model of a variant. */
  async wireModel(model: string): Promise<string> {
    return (await this.settings(model)).wireModel ?? model;
  }

  /** The protocol for a model: the setting, else what a refusal taught, else chat completions. */
  protocol(model: string, s: ModelCallSettings): Protocol {
    return s.protocol ?? this.memory.get(s.wireModel ?? model) ?? 'chat';
  }

  /** A chat refusal said "responses only": remember it and say so once. */
  learn(model: string, s: ModelCallSettings): void {
    const id = s.wireModel ?? model;
    if (this.memory.get(id) === 'responses') return;
    this.memory.set(id, 'responses');
    this.hooks.onLearned?.(id);
  }

  /** The chat completions body: the model's sampling, effort and extra fields applied. */
  chatBody(body: Record<string, unknown>, s: ModelCallSettings): Record<string, unknown> {
    let out: Record<string, unknown> = { ...body, ...s.sampling };
    // Encrypted reasoning is for the Responses API only; a chat gateway may refuse unknown fields.
    const messages = body.messages as ChatMessage[] | undefined;
    if (messages?.some((m) => m.role === 'assistant' && m.encrypted_reasoning))
      out.messages = messages.map((m) => {
        if (m.role !== 'assistant' || !m.encrypted_reasoning) return m;
        const { encrypted_reasoning: _drop, ...rest } = m;
        return rest;
      });
    if (s.wireModel) out.model = s.wireModel;
    if (s.reasoningEffort) out.reasoning_effort = s.reasoningEffort;
    // OpenRouter's web plugin; `extraBody` may still tune it (its `plugins` replace this list).
    if (s.webSearch) out.plugins = [...(Array.isArray(out.plugins) ? out.plugins : []), { id: 'web' }];
    if (s.extraBody) out = mergeBody(out, s.extraBody);
    return out;
  }

  /** The Responses body for the same request (its writer is loaded on first use: not needed at activation). */
  async responsesBody(req: ChatRequest, stream: boolean, s: ModelCallSettings): Promise<Record<string, unknown>> {
    const { toResponsesBody } = await import('../responses/request');
    const wireModel = s.wireModel ?? req.model;
    const sampled: ChatRequest = { ...req, ...s.sampling, model: wireModel };
    const body = toResponsesBody(sampled, stream, {
      reasoningEffort: s.reasoningEffort,
      askReasoning: !this.noReasoning.has(wireModel),
      // What the caller kept with the answer (it outlives this process), else what this client saw;
      // never another model's: it could not read it and would refuse the request.
      reasoningFor: (m) =>
        m.encrypted_reasoning
          ? m.encrypted_reasoning.model === wireModel
            ? m.encrypted_reasoning.items
            : undefined
          : this.reasoning.get(this.key(wireModel, m)),
    });
    // The Responses API's own search tool, beside the function tools (`extraBody` may not set `tools`).
    if (s.webSearch) body.tools = [...(Array.isArray(body.tools) ? body.tools : []), { type: 'web_search' }];
    return s.extraBody ? mergeBody(body, s.extraBody) : body;
  }

  /** The gateway refused `reasoning`/`include` for this model: later requests go without. */
  dropReasoning(model: string): void {
    this.noReasoning.add(model);
  }

  reasoningDropped(model: string): boolean {
    return this.noReasoning.has(model);
  }

  /** Keeps an answer's encrypted reasoning for when that answer is sent back (bounded). */
  rememberReasoning(model: string, m: AssistantMessage, items: readonly ReasoningItem[]): void {
    if (items.length === 0) return;
    const key = this.key(model, m);
    this.reasoning.delete(key);
    this.reasoning.set(key, [...items]);
    while (this.reasoning.size > 200) this.reasoning.delete(this.reasoning.keys().next().value!);
  }

  /** An answer is found again by its model, text and calls (ids alone repeat across conversations on some relays). */
  private key(model: string, m: Pick<AssistantMessage, 'content' | 'tool_calls'>): string {
    const calls = (m.tool_calls ?? []).map((c) => [c.id, c.function.name, c.function.arguments]);
    return createHash('sha256')
      .update(JSON.stringify([model, m.content ?? '', calls]))
      .digest('base64');
  }
}
