// A prompt cache like the providers' (issue 39 item 6), off unless asked for. Two behaviours, by
// the model id the client sent: a Claude-family id caches only at `cache_control` marks
// (Anthropic: the prefix up to a marked block is written; a later request reads the longest
// written prefix ending at one of its block boundaries up to its last mark; at least 1,024
// tokens; five minutes, or one hour with `ttl: "1h"`), any other id caches every prefix in
// 1,024-token blocks by itself (OpenAI's automatic caching). Tokens are characters / 4 over the
// tools (without their marks) and the messages' parts in order. The cached count is reported in
// the dialect asked (`prompt_tokens_details.cached_tokens`, Anthropic's `cache_read_input_tokens`
// with `cache_creation_input_tokens`, a flat `cached_tokens`, DeepSeek's `prompt_cache_hit_tokens`),
// and the gateway can refuse `cache_control` or `prompt_cache_key` with a 400 naming the field.
import { createHash } from 'node:crypto';
import { httpError } from './http';

type Json = Record<string, unknown>;

export type CacheDialect = 'auto' | 'openai' | 'anthropic' | 'flat' | 'deepseek';
export type CacheField = 'cache_control' | 'prompt_cache_key';

/** The knobs (`startGateway({ promptCache })`, `setPromptCache`, `POST /__control/cache`). */
export interface PromptCacheControl {
  /** Simulate the cache (default false: answers carry no cached counts and count prompts as before). */
  enabled?: boolean;
  /** How cached tokens are reported; `auto` (default): Anthropic's fields for Claude ids, else OpenAI's. */
  dialect?: CacheDialect;
  /** The fields this relay refuses with a 400 (default none). */
  refuse?: CacheField[];
}

/** What the cache did for one request: the prompt's tokens by this count and the usage fields to add. */
export interface CacheOutcome {
  promptTokens: number;
  usage: Json;
}

export const BLOCK_TOKENS = 1024;
const CHARS_PER_TOKEN = 4;
const FIVE_MINUTES = 5 * 60_000;
const ONE_HOUR = 60 * 60_000;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Segment {
  text: string;
  /** The mark on this block, with its lifetime. */
  markTtl?: number;
  /** Where a mark sits, for the refusal's `param`. */
  where: string;
}

function ttlOf(mark: unknown): number | undefined {
  if (!isObj(mark)) return undefined;
  return mark.ttl === '1h' ? ONE_HOUR : FIVE_MINUTES;
}

/** The request as blocks in cache order: tools, then each message's role and parts. */
export function segmentsOf(body: Json): Segment[] {
  const out: Segment[] = [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  tools.forEach((t, i) => {
    const { cache_control: mark, ...rest }: Json = isObj(t) ? t : { tool: t };
    out.push({ text: JSON.stringify(rest), markTtl: ttlOf(mark), where: `tools[${i}].cache_control` });
  });
  const messages = Array.isArray(body.messages) ? body.messages : [];
  messages.forEach((m, i) => {
    if (!isObj(m)) return;
    out.push({ text: `<${String(m.role)}>`, where: `messages[${i}]` });
    const c = m.content;
    if (typeof c === 'string') out.push({ text: c, where: `messages[${i}].content` });
    else if (Array.isArray(c))
      c.forEach((p, j) => {
        if (!isObj(p)) return;
        const { cache_control: mark, ...rest } = p;
        const text = typeof rest.text === 'string' ? rest.text : JSON.stringify(rest);
        out.push({ text, markTtl: ttlOf(mark), where: `messages[${i}].content[${j}].cache_control` });
      });
    if (Array.isArray(m.tool_calls)) out.push({ text: JSON.stringify(m.tool_calls), where: `messages[${i}]` });
    if (typeof m.reasoning_content === 'string') out.push({ text: m.reasoning_content, where: `messages[${i}]` });
  });
  return out;
}

const tokensOf = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);
const hash = (s: string): string => createHash('sha1').update(s).digest('base64');

export class PromptCacheSim {
  private knobs: Required<PromptCacheControl>;
  /** Written prefixes: `model|hash` -> expiry time. */
  private entries = new Map<string, number>();

  constructor(
    private readonly initial: PromptCacheControl = {},
    private readonly now: () => number = Date.now,
  ) {
    this.knobs = { enabled: false, dialect: 'auto', refuse: [], ...initial };
  }

  set(c: PromptCacheControl): void {
    if (c.dialect !== undefined && !['auto', 'openai', 'anthropic', 'flat', 'deepseek'].includes(c.dialect))
      throw new Error(
        `promptCache.dialect must be auto, openai, anthropic, flat or deepseek (got ${String(c.dialect)})`,
      );
    if (c.refuse !== undefined && !c.refuse.every((f) => f === 'cache_control' || f === 'prompt_cache_key'))
      throw new Error('promptCache.refuse lists cache_control and prompt_cache_key only');
    this.knobs = { ...this.knobs, ...c };
    // Turned off, the cache is emptied: turned on again it starts cold.
    if (c.enabled === false) this.entries.clear();
  }

  /** Back to the options it started with, nothing cached. */
  reset(): void {
    this.knobs = { enabled: false, dialect: 'auto', refuse: [], ...this.initial };
    this.entries.clear();
  }

  /**
   * Refuses a field the relay does not take (before anything is answered or billed); then, when
   * the cache is on, reads and writes it for this request. `model` is the id the client sent.
   */
  take(model: string, body: unknown): CacheOutcome | undefined {
    if (!isObj(body)) return undefined;
    const segs = segmentsOf(body);
    if (this.knobs.refuse.includes('prompt_cache_key') && body.prompt_cache_key !== undefined)
      throw httpError(
        400,
        'invalid_request_error',
        'unknown_parameter',
        'Unrecognized request argument supplied: prompt_cache_key',
        'prompt_cache_key',
      );
    const marked = segs.find((s) => s.markTtl !== undefined);
    if (this.knobs.refuse.includes('cache_control') && marked)
      throw httpError(
        400,
        'invalid_request_error',
        'extra_forbidden',
        `${marked.where}: Extra inputs are not permitted`,
        marked.where,
      );
    if (!this.knobs.enabled) return undefined;
    const claude = /claude|anthropic/i.test(model);
    const text = segs.map((s) => s.text).join('\u0000');
    const promptTokens = tokensOf(text.length);
    const { cached, written } = claude ? this.atMarks(model, segs) : this.inBlocks(model, text);
    return { promptTokens, usage: this.report(claude, Math.min(cached, promptTokens), written) };
  }

  private live(key: string): boolean {
    const until = this.entries.get(key);
    return until !== undefined && until > this.now();
  }

  /** OpenAI: every 1,024-token block of the prefix, read as far as the blocks match, all written. */
  private inBlocks(model: string, text: string): { cached: number; written: number } {
    const blockChars = BLOCK_TOKENS * CHARS_PER_TOKEN;
    let cached = 0;
    for (let end = blockChars; end <= text.length; end += blockChars) {
      const key = `${model}|${hash(text.slice(0, end))}`;
      if (this.live(key)) cached = tokensOf(end);
      this.entries.set(key, this.now() + FIVE_MINUTES);
    }
    return { cached, written: 0 };
  }

  /** Anthropic: the longest written prefix ending at a block boundary up to the last mark; each mark written. */
  private atMarks(model: string, segs: Segment[]): { cached: number; written: number } {
    const lastMark = segs.reduce((at, s, i) => (s.markTtl !== undefined ? i : at), -1);
    let chars = 0;
    let cached = 0;
    let written = 0;
    const ends: { key: string; tokens: number; ttl?: number }[] = [];
    // One running hash: each block boundary's prefix hashed as the blocks are read.
    const h = createHash('sha1');
    segs.forEach((s, i) => {
      if (i > lastMark) return;
      const piece = i > 0 ? `\u0000${s.text}` : s.text;
      chars += piece.length;
      h.update(piece);
      ends.push({ key: `${model}|${h.copy().digest('base64')}`, tokens: tokensOf(chars), ttl: s.markTtl });
    });
    for (const e of ends) if (e.tokens >= BLOCK_TOKENS && this.live(e.key)) cached = Math.max(cached, e.tokens);
    for (const e of ends) {
      if (e.ttl === undefined || e.tokens < BLOCK_TOKENS) continue;
      if (!this.live(e.key)) written = Math.max(written, e.tokens - cached);
      this.entries.set(e.key, this.now() + e.ttl);
    }
    return { cached, written };
  }

  private report(claude: boolean, cached: number, written: number): Json {
    const dialect = this.knobs.dialect === 'auto' ? (claude ? 'anthropic' : 'openai') : this.knobs.dialect;
    switch (dialect) {
      case 'anthropic':
        return { cache_read_input_tokens: cached, cache_creation_input_tokens: written };
      case 'flat':
        return { cached_tokens: cached };
      case 'deepseek':
        return { prompt_cache_hit_tokens: cached };
      default:
        return { prompt_tokens_details: { cached_tokens: cached } };
    }
  }
}
