// The gateway's model records (spec 2.3) as VS Code language-model entries, without `vscode`.
import * as l10n from '@vscode/l10n';
import { acceptsImages, isVideoModel, type ModelRecord } from '../../api/models';

/** The shape of `vscode.LanguageModelChatInformation` (1.104). */
export interface LmModelInfo {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly tooltip?: string;
  readonly detail?: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly imageInput?: boolean; readonly toolCalling?: boolean | number };
}

/**
 * Limits used when a record does not state them (spec 2.3 has no such field, and section 8 says
 * only "set by the model"): a 128K context, of which 16K may be the answer. Most current chat
 * models have at least that; a smaller real context gives the gateway's own error, which names it.
 */
export const DEFAULT_CONTEXT_TOKENS = 128_000;
export const DEFAULT_OUTPUT_TOKENS = 16_384;

/** Fields other gateways use for the context size and the answer size (OpenRouter, vLLM, LiteLLM, …). */
const CONTEXT_FIELDS = [
  'context_length',
  'context_window',
  'max_context_length',
  'max_model_len',
  'max_input_tokens',
  'input_token_limit',
];
const OUTPUT_FIELDS = ['max_output_tokens', 'max_completion_tokens', 'output_token_limit'];

function positiveInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 1 ? Math.floor(v) : undefined;
}

function firstNumber(r: Record<string, unknown>, fields: readonly string[]): number | undefined {
  for (const f of fields) {
    const n = positiveInt(r[f]);
    if (n !== undefined) return n;
  }
  return undefined;
}

/** Input and output token limits from the record when it states them, else the defaults. */
export function tokenLimits(m: ModelRecord): { maxInputTokens: number; maxOutputTokens: number } {
  const r = m as Record<string, unknown>;
  const top =
    typeof r.top_provider === 'object' && r.top_provider !== null ? (r.top_provider as Record<string, unknown>) : {};
  const context = firstNumber(r, CONTEXT_FIELDS) ?? firstNumber(top, ['context_length']);
  const statedOutput = firstNumber(r, OUTPUT_FIELDS) ?? firstNumber(top, ['max_completion_tokens']);
  if (context === undefined) {
    return {
      maxInputTokens: DEFAULT_CONTEXT_TOKENS - (statedOutput ?? DEFAULT_OUTPUT_TOKENS),
      maxOutputTokens: statedOutput ?? DEFAULT_OUTPUT_TOKENS,
    };
  }
  // `max_input_tokens` already excludes the answer; a context window includes it.
  if (positiveInt(r.max_input_tokens) === context || positiveInt(r.input_token_limit) === context) {
    return { maxInputTokens: context, maxOutputTokens: statedOutput ?? Math.min(DEFAULT_OUTPUT_TOKENS, context) };
  }
  const output = Math.min(statedOutput ?? DEFAULT_OUTPUT_TOKENS, Math.floor(context / 2));
  return { maxInputTokens: context - output, maxOutputTokens: output };
}

/** One chat model as VS Code shows it: image input from its capabilities, tool calling always on. */
export function toModelInfo(m: ModelRecord): LmModelInfo {
  const caps = [...new Set([...(m.capabilities ?? []), ...(m.modalities ?? [])])];
  const tooltip = [
    l10n.t('{0} on your gateway', m.id),
    m.owned_by ? l10n.t('Provided by {0}.', m.owned_by) : '',
    caps.length > 0 ? l10n.t('Capabilities: {0}.', caps.join(', ')) : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    id: m.id,
    name: m.id,
    family: m.id,
    // Not `created`: one-api/new-api style relays fill it with the time of the listing, so VS Code
    // would see a new version at every refresh. `owned_by` is no version either (and is often
    // absent). The id is what names a deployment on a gateway (aligned versions get their own id,
    // such as gw-chat-2026-11) and what VS Code's selectors already match, so it is stable
    // exactly as long as the model is the same one.
    version: m.id,
    tooltip,
    ...(m.owned_by ? { detail: m.owned_by } : {}),
    ...tokenLimits(m),
    capabilities: { imageInput: acceptsImages(m), toolCalling: true },
  };
}

/** The chat models of a `/v1/models` answer: video models are left out (they cannot chat). */
export function chatModelInfos(records: readonly ModelRecord[]): LmModelInfo[] {
  return records.filter((m) => !isVideoModel(m)).map(toModelInfo);
}

/** What {@link LmModelCache} lists from (a `GatewayClient`, or any object with this method). */
export interface ModelSource {
  listModels(signal?: AbortSignal): Promise<ModelRecord[]>;
}

/**
 * The chat models last listed from one source, reused for `ttlMs` while the source (the client,
 * which changes with the key and the base URL) stays the same. `invalidate` drops them, for
 * instance when a request to a listed model answers 404, so that the model picker stops offering
 * a model the gateway no longer has.
 */
export class LmModelCache {
  private entry?: { source: ModelSource; at: number; models: LmModelInfo[] };
  /** Bumped by `invalidate`, so a listing that was under way then does not refill the cache with the old answer. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached models of `source`, or undefined when there are none or they are too old. */
  cached(source: ModelSource): LmModelInfo[] | undefined {
    const e = this.entry;
    return e && e.source === source && this.now() - e.at < this.ttlMs ? e.models : undefined;
  }

  /** Lists the chat models of `source` (one `GET /v1/models`) and caches them. */
  async load(source: ModelSource, signal?: AbortSignal): Promise<LmModelInfo[]> {
    const generation = this.generation;
    const models = chatModelInfos(await source.listModels(signal));
    if (generation === this.generation) this.entry = { source, at: this.now(), models };
    return models;
  }

  /** Forgets the cached list; the next {@link cached} is undefined. */
  invalidate(): void {
    this.entry = undefined;
    this.generation++;
  }
}
