/**
 * `POST /v1/completions` with fill-in-the-middle (`prompt` + `suffix`): a scripted continuation for
 * known prefixes, a latency knob, and a record of the requests whose client went away before the
 * answer (aborted connections), so a test can count them. The contract is test/gateway/README.md.
 */
import type { ServerResponse } from 'node:http';
import type { FaultEffects } from './faults';
import { httpError, sendJson } from './http';
import { CHAT_MODELS } from './models';

/** The model meant for fill-in-the-middle (served here only; not listed, so model lists stay as they were). */
export const FIM_MODEL = 'gw-coder';

/**
 * Built-in texts the continuation is taken from: a prompt whose end is found in one of them is
 * answered with what follows it there. Tests and benches add their own with `completionTexts`.
 */
export const FIM_TEXTS: readonly string[] = [
  [
    'export function add(a: number, b: number): number {',
    '  return a + b;',
    '}',
    '',
    'export function greet(name: string): string {',
    '  return `Hello, ${name}!`;',
    '}',
    '',
  ].join('\n'),
];

/** One aborted completion: the client closed the connection before the answer was sent. */
export interface AbortedCompletion {
  /** When the connection closed (ms since the epoch). */
  at: number;
  model: string;
  /** The last 80 characters of the prompt, to tell requests apart. */
  promptTail: string;
}

/** The knobs of the completions route (`setCompletions`, `POST /__control/completions`). */
export interface CompletionControl {
  /** Time the "model" takes before answering, ms (default 0). */
  latencyMs?: number;
  /** Texts to continue from, added to {@link FIM_TEXTS} (replacing earlier added ones). */
  texts?: string[];
}

/** The shortest tail of a prompt that is looked up (shorter ones match by chance). */
const MIN_TAIL = 12;
/** The longest tail looked up. */
const MAX_TAIL = 200;

/**
 * What follows the end of `prompt` in one of `texts`: the rest of the line, or with `multiline`
 * (no "\n" among the stop sequences) up to `maxChars`, stopping before `suffix`'s first line when
 * the text reaches it. Empty when no text holds the prompt's end.
 */
export function continuation(
  prompt: string,
  suffix: string,
  texts: readonly string[],
  multiline: boolean,
  maxChars: number,
): string {
  for (let n = Math.min(MAX_TAIL, prompt.length); n >= MIN_TAIL; n--) {
    const tail = prompt.slice(prompt.length - n);
    for (const t of texts) {
      const at = t.indexOf(tail);
      if (at < 0) continue;
      const rest = t.slice(at + tail.length);
      let out = multiline ? rest.slice(0, maxChars) : (rest.split('\n')[0] ?? '').slice(0, maxChars);
      // A real FIM model stops where the suffix takes over (a line of the text equal to the
      // suffix's first line).
      const suffixHead = suffix
        .split('\n')
        .find((l) => l.trim() !== '')
        ?.trim();
      if (multiline && suffixHead !== undefined) {
        const lines = out.split('\n');
        const at = lines.findIndex((l, k) => k > 0 && l.trim() === suffixHead);
        if (at > 0) out = lines.slice(0, at).join('\n');
      }
      if (multiline) {
        // Up to the end of the first blank-line-separated block, as models stop at a paragraph.
        const blank = out.indexOf('\n\n');
        if (blank >= 0) out = out.slice(0, blank + 1);
      }
      return out;
    }
  }
  return '';
}

/** The hole marker of the product's chat infill prompt (src/completion/inline/core/request.ts). */
const HOLE = '{{FILL_HERE}}';

/**
 * A chat model's answer to an infill prompt (the file with {@link HOLE} in it), or undefined when
 * the text holds no hole: the continuation wrapped the way chat models typically get it wrong, a
 * sentence, then a fence, then the current line restated before the new code.
 */
export function infillChatAnswer(userText: string): string | undefined {
  const at = userText.indexOf(HOLE);
  if (at < 0) return undefined;
  const prefix = userText.slice(0, at);
  const suffix = userText.slice(at + HOLE.length);
  const code = continuation(prefix, suffix, FIM_TEXTS, userText.includes('short block'), 400);
  if (code === '') return 'I could not find what to complete here.';
  const line = prefix.slice(prefix.lastIndexOf('\n') + 1);
  return `Here is the missing code:\n\n\`\`\`\n${line.trimStart()}${code}\n\`\`\``;
}

/** Answers one completions request; `onAbort` hears of a client that left before the answer. */
export async function handleCompletions(
  res: ServerResponse,
  body: unknown,
  fx: FaultEffects,
  control: Required<CompletionControl>,
  onAbort: (a: AbortedCompletion) => void,
): Promise<void> {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const model = b.model;
  if (typeof model !== 'string' || model === '')
    throw httpError(400, 'invalid_request_error', 'invalid_request', 'model is required', 'model');
  if (model !== FIM_MODEL && !CHAT_MODELS.some((m) => m.id === model))
    throw httpError(
      404,
      'invalid_request_error',
      'model_not_found',
      `The model \`${model}\` does not exist or you do not have access to it.`,
      'model',
    );
  if (typeof b.prompt !== 'string')
    throw httpError(400, 'invalid_request_error', 'invalid_request', 'prompt must be a string', 'prompt');
  if (b.suffix !== undefined && b.suffix !== null && typeof b.suffix !== 'string')
    throw httpError(400, 'invalid_request_error', 'invalid_request', 'suffix must be a string', 'suffix');
  const maxTokens = b.max_tokens ?? 16;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)
    throw httpError(
      400,
      'invalid_request_error',
      'invalid_request',
      'max_tokens must be a positive integer',
      'max_tokens',
    );
  if (b.stream === true)
    throw httpError(400, 'invalid_request_error', 'unsupported_parameter', 'stream is not supported here', 'stream');
  const prompt = b.prompt;
  const suffix = typeof b.suffix === 'string' ? b.suffix : '';
  const stop = Array.isArray(b.stop) ? b.stop : typeof b.stop === 'string' ? [b.stop] : [];

  const left = await waitUnlessClosed(res, control.latencyMs);
  if (left) {
    onAbort({ at: Date.now(), model, promptTail: prompt.slice(-80) });
    return;
  }
  const text = continuation(prompt, suffix, [...FIM_TEXTS, ...control.texts], !stop.includes('\n'), maxTokens * 4);
  await sendJson(
    res,
    200,
    {
      id: `cmpl-${Math.random().toString(36).slice(2, 12)}`,
      object: 'text_completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, text, logprobs: null, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: Math.ceil((prompt.length + suffix.length) / 4),
        completion_tokens: Math.ceil(text.length / 4),
        total_tokens: Math.ceil((prompt.length + suffix.length) / 4) + Math.ceil(text.length / 4),
      },
    },
    fx,
  );
}

/** Waits `ms`; true when the client closed the connection first (or had already). */
function waitUnlessClosed(res: ServerResponse, ms: number): Promise<boolean> {
  if (res.destroyed || res.socket?.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(false);
    }, ms);
    timer.unref();
    res.once('close', onClose);
  });
}
