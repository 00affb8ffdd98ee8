/**
 * A model's context window and output limit, from one place: what its `/v1/models` record says
 * (in any of the shapes servers use), what the user declared for it, what an overflow error
 * taught, else a stated default. The chat panel and the language-model provider both ask here.
 */

/** What a model record states about its limits; each field undefined when it does not say. */
export interface RecordLimits {
  /** Tokens of prompt plus answer the model can hold. */
  window?: number;
  /** The longest answer, when stated. */
  maxOutput?: number;
  /** True when the stated window is an input limit (it excludes the answer): `max_input_tokens`, `input_token_limit`. */
  inputOnly?: boolean;
  /** Which field the window came from (`context_length`, `meta.n_ctx`, …), for the meter's tooltip. */
  field?: string;
}

/** Per-model declarations of the setting `gatewayStudio.models.overrides` (keyed by model id). */
export interface ModelOverride {
  contextWindow?: number;
  maxOutputTokens?: number;
  images?: boolean;
  tools?: boolean;
  /** How inline completion asks this model: `fim` on `/v1/completions`, else the chat endpoint. */
  completion?: 'fim' | 'chat';
}

/**
 * The window assumed when nothing states one: 32,768 tokens. Conservative on purpose: most
 * served chat models today hold at least that, so the meter and compaction start early rather
 * than late; a model that holds more should say so in its record or in the overrides setting,
 * and one that holds less either states it or its first overflow error teaches it.
 */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

/** Where the window in use came from. */
export type LimitSource = 'model' | 'override' | 'default' | 'error';

export interface ModelLimits {
  /** Tokens of prompt plus answer. */
  window: number;
  /** The model's output limit, when the record or the overrides state one. */
  maxOutput?: number;
  source: LimitSource;
  /** The record's field the window came from, when `source` is `model`. */
  field?: string;
  /** The overrides' image and tool declarations, when given. */
  images?: boolean;
  tools?: boolean;
}

// Window fields, most specific first: a record that has several (a relay copying OpenRouter's
// and its own) states the same number in each.
const WINDOW_FIELDS = ['context_length', 'context_window', 'max_context_length', 'max_model_len'] as const;
const INPUT_FIELDS = ['max_input_tokens', 'input_token_limit'] as const;
const OUTPUT_FIELDS = ['max_output_tokens', 'max_completion_tokens', 'output_token_limit'] as const;

function positiveInt(v: unknown): number | undefined {
  if (typeof v === 'string' && /^\d+$/.test(v.trim())) v = Number(v);
  return typeof v === 'number' && Number.isFinite(v) && v >= 1 ? Math.floor(v) : undefined;
}

function obj(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** Reads the limits a model record states, in every shape listed by the issue (OpenRouter, vLLM, llama.cpp, LiteLLM, Gemini). */
export function readModelLimits(record: unknown): RecordLimits {
  const r = obj(record);
  const out: RecordLimits = {};
  for (const f of WINDOW_FIELDS) {
    const n = positiveInt(r[f]);
    if (n !== undefined) return withOutput({ window: n, field: f }, r);
  }
  const top = obj(r.top_provider);
  const topN = positiveInt(top.context_length);
  if (topN !== undefined) return withOutput({ window: topN, field: 'top_provider.context_length' }, r);
  // llama.cpp's server: `meta.n_ctx` is the running context (per slot); `n_ctx_train` only what
  // the model was trained with, which the server may not give.
  const meta = obj(r.meta);
  const nCtx = positiveInt(meta.n_ctx);
  if (nCtx !== undefined) return withOutput({ window: nCtx, field: 'meta.n_ctx' }, r);
  for (const f of INPUT_FIELDS) {
    const n = positiveInt(r[f]);
    if (n !== undefined) return withOutput({ window: n, field: f, inputOnly: true }, r);
  }
  return withOutput(out, r);
}

function withOutput(l: RecordLimits, r: Record<string, unknown>): RecordLimits {
  for (const f of OUTPUT_FIELDS) {
    const n = positiveInt(r[f]);
    if (n !== undefined) return { ...l, maxOutput: n };
  }
  const top = positiveInt(obj(r.top_provider).max_completion_tokens);
  return top !== undefined ? { ...l, maxOutput: top } : l;
}

/** The overrides setting as typed by the user, each entry checked; wrong values are left out. */
export function readOverrides(raw: unknown): Record<string, ModelOverride> {
  const out: Record<string, ModelOverride> = {};
  for (const [id, v] of Object.entries(obj(raw))) {
    const o = obj(v);
    const e: ModelOverride = {};
    const w = positiveInt(o.contextWindow);
    const m = positiveInt(o.maxOutputTokens);
    if (w !== undefined) e.contextWindow = w;
    if (m !== undefined) e.maxOutputTokens = m;
    if (typeof o.images === 'boolean') e.images = o.images;
    if (typeof o.tools === 'boolean') e.tools = o.tools;
    if (o.completion === 'fim' || o.completion === 'chat') e.completion = o.completion;
    out[id] = e;
  }
  return out;
}

export interface LimitInputs {
  /** The model's record from `/v1/models`, when listed. */
  record?: unknown;
  /** The user's override for this model. */
  override?: ModelOverride;
  /** A window an overflow error stated for this model (see `overflow.ts`). */
  learned?: number;
  /** The window when nothing states one (default {@link DEFAULT_CONTEXT_WINDOW}). */
  fallback?: number;
}

/**
 * The limits in use. A window an overflow error stated wins (the running server said it; a record
 * may give the trained size, a user may be wrong), then the user's override (declares a relay's
 * model right), then the record, then the default.
 */
export function resolveLimits(i: LimitInputs): ModelLimits {
  const rec = readModelLimits(i.record);
  const o = i.override ?? {};
  const maxOutput = o.maxOutputTokens ?? rec.maxOutput;
  const extra = {
    ...(maxOutput !== undefined ? { maxOutput } : {}),
    ...(o.images !== undefined ? { images: o.images } : {}),
    ...(o.tools !== undefined ? { tools: o.tools } : {}),
  };
  if (i.learned !== undefined) return { window: i.learned, source: 'error', ...extra };
  if (o.contextWindow !== undefined) return { window: o.contextWindow, source: 'override', ...extra };
  if (rec.window !== undefined) {
    // An input limit excludes the answer: the window is the input plus the output limit.
    const window = rec.inputOnly ? rec.window + (rec.maxOutput ?? 0) : rec.window;
    return { window, source: 'model', field: rec.field, ...extra };
  }
  return { window: i.fallback ?? DEFAULT_CONTEXT_WINDOW, source: 'default', ...extra };
}
