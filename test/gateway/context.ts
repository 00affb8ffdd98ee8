/**
 * The context-window knob: models with a window, listed in the field shapes real servers use,
 * that count a request's tokens by a stated rule and refuse one past the window the way each
 * server does. See README.md ("Context windows").
 */
import { httpError, HttpError } from './http';

/** Whose refusal a windowed model answers with. */
export type OverflowShape = 'openai' | 'llama.cpp' | 'vllm' | 'prompt-too-long';

export interface WindowRule {
  window: number;
  shape: OverflowShape;
  /** How `/v1/models` states the window: a field path (`meta.n_ctx`, `top_provider.context_length`), or `none`. */
  field: string;
  /** An output limit the record states too (`max_output_tokens` unless the field says otherwise). */
  maxOutput?: number;
}

/** The windowed models (listed only when the knob is on: `contextModels: true` or `/__control/context`). */
export const WINDOW_MODELS: Readonly<Record<string, WindowRule>> = {
  'gw-window-openai': { window: 8192, shape: 'openai', field: 'context_window' },
  'gw-window-openrouter': { window: 8192, shape: 'openai', field: 'top_provider.context_length', maxOutput: 1024 },
  'gw-window-llama': { window: 4096, shape: 'llama.cpp', field: 'meta.n_ctx' },
  'gw-window-vllm': { window: 8192, shape: 'vllm', field: 'max_model_len' },
  'gw-window-length': { window: 8192, shape: 'openai', field: 'context_length' },
  'gw-window-maxlen': { window: 8192, shape: 'vllm', field: 'max_context_length' },
  'gw-window-litellm': { window: 6144, shape: 'openai', field: 'max_input_tokens', maxOutput: 2048 },
  'gw-window-gemini': { window: 6144, shape: 'prompt-too-long', field: 'input_token_limit', maxOutput: 2048 },
  // A server that does not list its window: only its refusal says it.
  'gw-window-unlisted': { window: 4096, shape: 'llama.cpp', field: 'none' },
};

const CREATED = 1_767_225_600;

/** The model record with its window in its field's shape. */
export function windowRecord(id: string, rule: WindowRule): Record<string, unknown> {
  const r: Record<string, unknown> = {
    id,
    object: 'model',
    created: CREATED,
    owned_by: 'gateway-studio',
    capabilities: ['streaming', 'tools'],
    modalities: ['text'],
  };
  const [head, tail] = rule.field.split('.');
  if (rule.field === 'none' || !head) return r;
  if (tail) r[head] = { [tail]: rule.window, ...(head === 'meta' ? { n_ctx_train: 131_072 } : {}) };
  else r[head] = rule.window;
  if (rule.maxOutput !== undefined) {
    if (head === 'top_provider') (r.top_provider as Record<string, unknown>).max_completion_tokens = rule.maxOutput;
    else if (head === 'input_token_limit') r.output_token_limit = rule.maxOutput;
    else r.max_output_tokens = rule.maxOutput;
  }
  return r;
}

type Json = Record<string, unknown>;

function chars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const p of content as Json[]) {
    if (p?.type === 'text' && typeof p.text === 'string') n += p.text.length;
    else if (p?.type === 'image_url') n += 765 * 4;
  }
  return n;
}

/**
 * The gateway's token rule, stated so tests can compute it: per message 4 tokens plus
 * ceil(characters / 4) of its text (tool calls: name and arguments; reasoning_content too; an
 * image counts as 765 tokens), plus ceil(characters / 4) of the JSON of `tools`.
 */
export function countPromptTokens(messages: readonly Json[], tools: unknown): number {
  let n = 0;
  for (const m of messages) {
    let c = chars(m.content);
    if (typeof m.reasoning_content === 'string') c += m.reasoning_content.length;
    if (Array.isArray(m.tool_calls))
      for (const tc of m.tool_calls as Json[]) {
        const f = (tc.function ?? {}) as Json;
        c += String(f.name ?? '').length + String(f.arguments ?? '').length;
      }
    n += 4 + Math.ceil(c / 4);
  }
  if (Array.isArray(tools) && tools.length > 0) n += Math.ceil(JSON.stringify(tools).length / 4);
  return n;
}

/**
 * Refuses a request whose prompt plus `max_tokens` passes the window, with the body the model's
 * server sends. llama.cpp checks the prompt alone (it stops the answer at the window).
 */
export function checkWindow(rule: WindowRule, prompt: number, maxTokens: number | undefined): void {
  const answer = maxTokens ?? 0;
  if (rule.shape === 'llama.cpp') {
    if (prompt <= rule.window) return;
    const message = `request (${prompt} tokens) exceeds the available context size (${rule.window} tokens), try increasing it`;
    throw new HttpError(400, plain('exceed_context_size_error', message), {
      error: { code: 400, message, type: 'exceed_context_size_error', n_prompt_tokens: prompt, n_ctx: rule.window },
    });
  }
  if (prompt + answer <= rule.window) return;
  if (rule.shape === 'openai')
    throw httpError(
      400,
      'invalid_request_error',
      'context_length_exceeded',
      `This model's maximum context length is ${rule.window} tokens. However, your messages resulted in ${prompt + answer} tokens. Please reduce the length of the messages.`,
      'messages',
    );
  if (rule.shape === 'vllm') {
    // vLLM's own words for a prompt alone too long, else OpenAI's with the split it adds.
    const message =
      prompt > rule.window
        ? `The decoder prompt (length ${prompt}) is longer than the maximum model length of ${rule.window}. Make sure that \`max_model_len\` is no smaller than the number of text tokens.`
        : `This model's maximum context length is ${rule.window} tokens. However, you requested ${prompt + answer} tokens (${prompt} in the messages, ${answer} in the completion). Please reduce the length of the messages or completion.`;
    throw new HttpError(400, plain('BadRequestError', message), {
      object: 'error',
      message,
      type: 'BadRequestError',
      param: null,
      code: 400,
    });
  }
  const message = `prompt is too long: ${prompt + answer} tokens > ${rule.window} maximum`;
  throw new HttpError(400, plain('invalid_request_error', message), {
    type: 'error',
    error: { type: 'invalid_request_error', message },
  });
}

function plain(type: string, message: string): { type: string; code: string; message: string; param: null } {
  return { type, code: '', message, param: null };
}
