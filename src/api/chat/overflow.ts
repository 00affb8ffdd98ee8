/**
 * Recognises "the prompt does not fit the context window" among a gateway's errors, by meaning
 * rather than by one server's wording, and reads the numbers the error states.
 */
import { isGatewayError } from '../transport/errors';

/** Which server's shape the error had (for logs and tests). */
export type OverflowShape = 'openai' | 'llama.cpp' | 'vllm' | 'prompt-too-long' | 'other';

export interface Overflow {
  shape: OverflowShape;
  /** The window the server stated, when it did. */
  window?: number;
  /** The prompt's tokens as the server counted them, when stated. */
  promptTokens?: number;
}

const num = (s: string | undefined): number | undefined => {
  if (s === undefined) return undefined;
  const n = Number(s.replace(/[,_]/g, ''));
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/**
 * The overflow an error reports, or undefined when it is some other error. Shapes:
 * - OpenAI: code `context_length_exceeded`, "maximum context length is N tokens. However, your
 *   messages resulted in M tokens";
 * - llama.cpp: type `exceed_context_size_error` with `n_ctx` and `n_prompt_tokens` (numeric
 *   `code` 400), "request (M tokens) exceeds the available context size (N tokens)";
 * - vLLM: "… (length M) is longer than the maximum model length of N", or OpenAI's words with
 *   "you requested M tokens";
 * - Anthropic-style relays: "prompt is too long: M tokens > N maximum".
 */
export function readOverflow(err: unknown): Overflow | undefined {
  if (!isGatewayError(err)) return undefined;
  if (err.status !== undefined && err.status !== 400 && err.status !== 413 && err.status !== 422) return undefined;
  const text = err.message;
  const tag = `${err.type ?? ''} ${err.code ?? ''}`.toLowerCase();
  const details = err.details ?? {};
  if (tag.includes('exceed_context_size') || /exceeds the available context size/i.test(text)) {
    const m = /request \((\d[\d,]*) tokens\) exceeds the available context size \((\d[\d,]*) tokens\)/i.exec(text);
    return {
      shape: 'llama.cpp',
      window: details.n_ctx ?? num(m?.[2]),
      promptTokens: details.n_prompt_tokens ?? num(m?.[1]),
    };
  }
  const vllm = /\(length (\d[\d,]*)\) is longer than the maximum model length of (\d[\d,]*)/i.exec(text);
  if (vllm || /longer than the maximum model length/i.test(text)) {
    return { shape: 'vllm', window: num(vllm?.[2]), promptTokens: num(vllm?.[1]) };
  }
  const tooLong = /prompt is too long(?::\s*(\d[\d,]*) tokens\s*>\s*(\d[\d,]*))?/i.exec(text);
  if (tooLong) return { shape: 'prompt-too-long', window: num(tooLong[2]), promptTokens: num(tooLong[1]) };
  const max = /maximum context length is (\d[\d,]*) tokens/i.exec(text);
  if (tag.includes('context_length_exceeded') || max) {
    // vLLM's variant splits the request: "(M in the messages, K in the completion)".
    const used =
      /(\d[\d,]*) in the messages/i.exec(text) ?? /(?:resulted in|you requested) (\d[\d,]*) tokens/i.exec(text);
    return { shape: 'openai', window: num(max?.[1]), promptTokens: num(used?.[1]) };
  }
  if (/context[ _-]?(window|length|size)/i.test(text) && /exceed|too (long|large|many)/i.test(text))
    return { shape: 'other' };
  return undefined;
}
