/**
 * Prompt caching on chat completions (issue 39 item 5). What a cache needs is a prefix that stays
 * the same from one request to the next: the chat's volatile editor state (`ChatRequest.environment`)
 * is placed here after the conversation, never before it, and each model family is asked for its
 * cache the way its relays understand: `cache_control` breakpoints for Claude-family models behind
 * OpenAI-compatible relays (OpenRouter, LiteLLM, new-api pass them on), `prompt_cache_key` per
 * conversation for OpenAI-family models, nothing for others (their servers cache a stable prefix
 * by themselves, or not at all). A relay that refuses a field with a 400 naming it gets the
 * request once more without it (see {@link cacheFieldRefused}). Loaded with the first request.
 */
import { isGatewayError } from '../transport/errors';
import type { ChatMessage, ContentPart, TextPart, ToolDefinition } from './wire';

/** How a model is asked for its cache. */
export type CacheMode = 'cache_control' | 'prompt_cache_key' | 'off';
/** The setting's values (`gatewayStudio.models.overrides[model].promptCache`): `auto` is the family's default. */
export type CacheSetting = CacheMode | 'auto';
/** `cache_control` lifetime: Anthropic's default five minutes, or one hour (written at a higher price). */
export type CacheTtl = '5m' | '1h';
/** The fields a relay may refuse. */
export type CacheField = 'cache_control' | 'prompt_cache_key';

export const CACHE_SETTINGS: readonly CacheSetting[] = ['auto', 'cache_control', 'prompt_cache_key', 'off'];

/**
 * The family's default. Claude models (`claude-…`, `anthropic/claude-…`, Bedrock's
 * `anthropic.claude-…`) cache only at breakpoints; OpenAI's (`gpt-…`, `o3`, `openai/…`, `codex`)
 * cache every prefix of 1,024 tokens and more by themselves, and the key keeps a conversation on
 * the same cache. `gpt-oss` is open weights served by anyone: no key.
 */
export function defaultCacheMode(model: string): CacheMode {
  const id = model.toLowerCase();
  if (/claude|anthropic/.test(id)) return 'cache_control';
  const last = id.split(/[/:]/).pop() ?? id;
  if (last.startsWith('gpt-oss')) return 'off';
  if (/^openai\//.test(id) || /^(gpt-|chatgpt|o[1-9](-|$)|codex)/.test(last)) return 'prompt_cache_key';
  return 'off';
}

/** The mode for `model`: the user's setting when it names one, else the family's default. */
export function cacheModeFor(model: string, setting: CacheSetting | undefined): CacheMode {
  return setting && setting !== 'auto' ? setting : defaultCacheMode(model);
}

/** What one request is sent with. */
export interface CachePlan {
  mode: CacheMode;
  ttl?: CacheTtl;
}

type Body = Record<string, unknown>;
type Mark = { type: 'ephemeral'; ttl?: '1h' };

const asParts = (c: string | ContentPart[] | null): ContentPart[] =>
  typeof c === 'string' ? [{ type: 'text', text: c }] : (c ?? []);

/** `m` with a breakpoint on its last part (a string content becomes one text part). */
function marked(m: ChatMessage, mark: Mark): ChatMessage {
  const parts = asParts(m.content).map((p) => ({ ...p }));
  const last = parts.at(-1);
  if (!last) return m;
  (last as ContentPart & { cache_control?: Mark }).cache_control = mark;
  return { ...m, content: parts } as ChatMessage;
}

/**
 * The breakpoints of a Claude-family request (Anthropic allows four): the system prompt, the last
 * tool definition, and the last two user or tool messages, so each request reads the prefix the
 * one before wrote at its last message and writes its own. System, user and tool contents are
 * sent as parts throughout.
 */
export function markBreakpoints(
  messages: readonly ChatMessage[],
  tools: readonly ToolDefinition[] | undefined,
  ttl?: CacheTtl,
): { messages: ChatMessage[]; tools?: ToolDefinition[] } {
  const mark: Mark = ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
  // Every text message as parts, marked or not: a message keeps its form when the marks move on
  // to newer turns, so the prefix is the same text in the same shape.
  const out = messages.map((m) =>
    m.role !== 'assistant' && typeof m.content === 'string'
      ? ({ ...m, content: asParts(m.content) } as ChatMessage)
      : m,
  );
  if (out[0]?.role === 'system') out[0] = marked(out[0], mark);
  let left = 2;
  for (let i = out.length - 1; i >= 0 && left > 0; i--) {
    const m = out[i]!;
    if (m.role !== 'user' && m.role !== 'tool') continue;
    out[i] = marked(m, mark);
    left--;
  }
  if (!tools?.length) return { messages: out };
  const marks = tools.map((t, i) => (i === tools.length - 1 ? { ...t, cache_control: mark } : t));
  return { messages: out, tools: marks };
}

/**
 * The editor state after the conversation: a last text part of the last message when that is the
 * user's (its own part when the message carries breakpoints, so the breakpoint stays before it),
 * else a user message after the last tool results. Never stored: the next request has it in the
 * same place, with what is true then, and the prefix before it is unchanged.
 */
export function placeEnvironment(messages: ChatMessage[], env: string | undefined, asPart: boolean): ChatMessage[] {
  if (!env) return messages;
  const last = messages.at(-1);
  if (last?.role === 'user') {
    const content: string | ContentPart[] =
      typeof last.content === 'string' && !asPart
        ? `${last.content}\n\n${env}`
        : [...asParts(last.content), { type: 'text', text: env } satisfies TextPart];
    return [...messages.slice(0, -1), { ...last, content }];
  }
  // After an assistant message (a continuation) nothing follows: the answer goes on from there.
  if (last?.role === 'tool') return [...messages, { role: 'user', content: env }];
  return messages;
}

/**
 * The chat completions body as sent: the non-wire fields `environment` and `cacheKey` taken out,
 * the editor state placed, and the plan's cache fields added (minus any the gateway refused).
 */
export function shapeChatBody(body: Body, plan: CachePlan, refused: ReadonlySet<CacheField> = new Set()): Body {
  const { environment, cacheKey, ...out } = body as Body & { environment?: unknown; cacheKey?: unknown };
  let messages = out.messages as ChatMessage[];
  const marks = plan.mode === 'cache_control' && !refused.has('cache_control');
  if (marks) {
    const m = markBreakpoints(messages, out.tools as ToolDefinition[] | undefined, plan.ttl);
    messages = m.messages;
    if (m.tools) out.tools = m.tools;
  }
  out.messages = placeEnvironment(messages, typeof environment === 'string' ? environment : undefined, marks);
  if (plan.mode === 'prompt_cache_key' && !refused.has('prompt_cache_key') && typeof cacheKey === 'string' && cacheKey)
    out.prompt_cache_key = cacheKey;
  return out;
}

/**
 * Which cache field a refusal is about: a 400 or 422 whose `param` or message names
 * `cache_control` or `prompt_cache_key` (OpenAI's "Unrecognized request argument supplied:
 * prompt_cache_key", vLLM's "…cache_control: Extra inputs are not permitted", a relay's
 * `param: "messages[0].content[0].cache_control"`). Anything else is not ours to retry.
 */
export function cacheFieldRefused(e: unknown, sent: Body): CacheField | undefined {
  if (!isGatewayError(e) || (e.status !== 400 && e.status !== 422)) return undefined;
  const said = `${e.param ?? ''} ${e.message} ${e.code ?? ''}`;
  if (/prompt_cache_key/.test(said) && sent.prompt_cache_key !== undefined) return 'prompt_cache_key';
  if (/cache_control/.test(said) && JSON.stringify(sent).includes('"cache_control"')) return 'cache_control';
  return undefined;
}

/** What the client is built with for caching (in the extension: the settings and a one-time notice). */
export interface PromptCacheHooks {
  /** `gatewayStudio.models.promptCacheTtl` now (the user's own setting only). */
  readonly cacheTtl?: () => CacheTtl | undefined;
  /** Told the first time this client's gateway refuses `field` for `model`. */
  readonly onCacheRefused?: (model: string, field: CacheField) => void;
}

/**
 * One client's caching: the plan per model, and the fields its gateway refused (per model, for
 * the client's life: the request goes without them from then on, and the user is told once).
 */
export class PromptCache {
  private readonly refused = new Map<string, Set<CacheField>>();

  constructor(
    private readonly hooks: PromptCacheHooks = {},
    private readonly warn: (msg: string) => void = () => undefined,
  ) {}

  plan(model: string, setting: CacheSetting | undefined): CachePlan {
    const mode = cacheModeFor(model, setting);
    const ttl = this.hooks.cacheTtl?.();
    return ttl ? { mode, ttl } : { mode };
  }

  /** The fields `model` goes without on this gateway. */
  refusedFor(model: string): ReadonlySet<CacheField> {
    return this.refused.get(model) ?? new Set();
  }

  /** A chat completions body (with the request's non-wire fields) shaped, posted, and once more without a refused field. */
  chat<T>(model: string, setting: CacheSetting | undefined, body: Body, post: (b: Body) => Promise<T>): Promise<T> {
    return this.sendOnce(model, (refused) => shapeChatBody(body, this.plan(model, setting), refused), post);
  }

  /** A Responses body: the key added when the plan asks for one (breakpoints are chat completions' only). */
  responses<T>(
    model: string,
    setting: CacheSetting | undefined,
    cacheKey: string | undefined,
    body: Body,
    post: (b: Body) => Promise<T>,
  ): Promise<T> {
    const keyed = this.plan(model, setting).mode === 'prompt_cache_key' && cacheKey;
    return this.sendOnce(
      model,
      (refused) => (keyed && !refused.has('prompt_cache_key') ? { ...body, prompt_cache_key: cacheKey } : body),
      post,
    );
  }

  private async sendOnce<T>(
    model: string,
    shape: (refused: ReadonlySet<CacheField>) => Body,
    post: (b: Body) => Promise<T>,
  ): Promise<T> {
    const sent = shape(this.refusedFor(model));
    try {
      return await post(sent);
    } catch (e) {
      const field = cacheFieldRefused(e, sent);
      if (!field) throw e;
      const set = this.refused.get(model) ?? new Set<CacheField>();
      set.add(field);
      this.refused.set(model, set);
      this.warn(`the gateway refused ${field} for ${model}; sending once more without it, and from now on`);
      this.hooks.onCacheRefused?.(model, field);
      return await post(shape(set));
    }
  }
}

/** The request with its editor state placed after the conversation, for a writer that takes messages (Responses). */
export function withEnvironmentPlaced<R extends { messages: ChatMessage[]; environment?: string; cacheKey?: string }>(
  req: R,
): R {
  const { environment, cacheKey: _key, ...rest } = req;
  return { ...rest, messages: placeEnvironment(req.messages, environment, false) } as R;
}

/** A count that is a finite non-negative number, floored; else undefined. */
function tokens(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
}

/**
 * The prompt tokens a usage says were read from the cache, in every dialect relays use:
 * `prompt_tokens_details.cached_tokens` (OpenAI, OpenRouter, LiteLLM, new-api),
 * `cache_read_input_tokens` (Anthropic's field, which LiteLLM and some relays copy), a flat
 * `cached_tokens`, DeepSeek's `prompt_cache_hit_tokens`. Undefined when it says nothing.
 */
export function readCachedTokens(usage: unknown): number | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const u = usage as Record<string, unknown>;
  const d = u.prompt_tokens_details;
  const details =
    typeof d === 'object' && d !== null ? tokens((d as Record<string, unknown>).cached_tokens) : undefined;
  return details ?? tokens(u.cache_read_input_tokens) ?? tokens(u.cached_tokens) ?? tokens(u.prompt_cache_hit_tokens);
}

/**
 * `usage` with the cached count in `prompt_tokens_details.cached_tokens` (where OpenAI puts it),
 * whichever dialect the relay spoke; the relay's own fields are kept.
 */
export function withCachedTokens<U extends object>(usage: U): U {
  const cached = readCachedTokens(usage);
  const d = (usage as { prompt_tokens_details?: unknown }).prompt_tokens_details;
  if (cached === undefined || (typeof d === 'object' && d !== null && 'cached_tokens' in d)) return usage;
  return {
    ...usage,
    prompt_tokens_details: { ...(typeof d === 'object' && d !== null ? d : {}), cached_tokens: cached },
  };
}
