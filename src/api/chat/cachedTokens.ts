/**
 * The cached share of an answer's prompt, read once where the answer is assembled (accumulator.ts)
 * so the ledger, the cost and the chat's line all see it in one field. Tiny on purpose: it loads
 * with the client at activation.
 */

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
