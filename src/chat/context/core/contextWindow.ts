/**
 * The context window as the chat sees it: the model's limits (one answer for the chat panel and
 * the language-model provider, see `api/modelLimits.ts`), how many tokens a request holds, and
 * what its parts are for the meter.
 *
 * Counting: the gateway's `usage.prompt_tokens` of the last answer is the truth. There is no
 * tokenizer in the bundle (the gateway's models use many different vocabularies, and an o200k
 * or cl100k table alone is 1-2 MB, far past the 300 KB budget, while still being wrong for
 * llama.cpp's or Qwen's vocabularies). New content is estimated by characters per token:
 * about 4 characters per token for Latin text and code, one token per CJK character (CJK
 * ideographs and kana are usually 1-2 tokens each, never a quarter), a flat cost per image and
 * per message. After every answer the estimate of the request just sent is calibrated against
 * the server's count, so the same request estimates to exactly what the server said, and new
 * content is scaled by the same ratio.
 */
import type { ChatMessage as WireMessage, ChatRequest, ContentPart } from '../../../api/chat/wire';
import {
  DEFAULT_CONTEXT_WINDOW,
  readModelLimits,
  readOverrides,
  resolveLimits,
  type LimitInputs,
  type ModelLimits,
  type ModelOverride,
} from '../../../api/models/modelLimits';
import { CHARS_PER_TOKEN, rawTextTokens } from '../../../shared/tokens';

export { DEFAULT_CONTEXT_WINDOW, readModelLimits, readOverrides, type ModelLimits, type ModelOverride };

/** The model's limits: a learned window, then the user's override, then the record, then the default. */
export function resolveModelLimits(i: LimitInputs): ModelLimits {
  return resolveLimits(i);
}

/** Tokens an image is counted as (about a 1024x1024 picture at OpenAI's high detail). */
export const IMAGE_TOKENS = 765;
/** Role and separators of one message, as chat templates add them. */
export const MESSAGE_TOKENS = 4;
// The estimate itself is shared (src/shared/tokens.ts): the commit message sizes its diff by it too.
export { CHARS_PER_TOKEN, rawTextTokens };

/** The parts of a request, in tokens, as the meter shows them. */
export interface Breakdown {
  /** System messages: the system prompt, rules, and a summary of earlier turns. */
  system: number;
  /** The tool definitions sent with the request. */
  tools: number;
  /** User, assistant and tool messages, without their attachments. */
  history: number;
  /** Images and quoted editor context of user messages. */
  attachments: number;
}

export function totalOf(b: Breakdown): number {
  return b.system + b.tools + b.history + b.attachments;
}

/**
 * Estimates tokens, calibrated against the server's own counts. One per session: the ratio is
 * the last answer's `prompt_tokens` over the raw estimate of the request that got it.
 */
export class TokenEstimator {
  private ratioValue = 1;
  /** Tool lists counted: a request is counted five times on its way out (the fit, the meter, the calibration). */
  private readonly toolTokens = new WeakMap<readonly unknown[], { length: number; tokens: number }>();

  /** The current calibration (server tokens per estimated token). */
  get ratio(): number {
    return this.ratioValue;
  }

  /** Characters per token after calibration, for the webview's estimate of the typed draft. */
  get charsPerToken(): number {
    return CHARS_PER_TOKEN / this.ratioValue;
  }

  /** Calibrates from a request and the `prompt_tokens` the server counted for it. */
  calibrate(req: ChatRequest, promptTokens: number): void {
    const raw = totalOf(this.rawBreakdown(req));
    if (raw <= 0 || promptTokens <= 0) return;
    // Bounded: a server that counts oddly (or a cached-prompt figure) must not make every later
    // estimate absurd.
    this.ratioValue = Math.min(4, Math.max(0.25, promptTokens / raw));
  }

  text(s: string): number {
    return Math.ceil(rawTextTokens(s) * this.ratioValue);
  }

  /** The request's parts, calibrated. */
  breakdown(req: ChatRequest, attachmentTexts: readonly string[] = []): Breakdown {
    const raw = this.rawBreakdown(req, attachmentTexts);
    const r = this.ratioValue;
    return {
      system: Math.ceil(raw.system * r),
      tools: Math.ceil(raw.tools * r),
      history: Math.ceil(raw.history * r),
      attachments: Math.ceil(raw.attachments * r),
    };
  }

  /** The request's prompt tokens, calibrated. */
  count(req: ChatRequest): number {
    return totalOf(this.breakdown(req));
  }

  /**
   * Uncalibrated parts. `attachmentTexts` are texts quoted into user messages (editor context,
   * mentions): counted as attachments and taken out of the history they are part of on the wire.
   */
  rawBreakdown(req: ChatRequest, attachmentTexts: readonly string[] = []): Breakdown {
    const b: Breakdown = { system: 0, tools: 0, history: 0, attachments: 0 };
    for (const m of req.messages) {
      const t = messageTokens(m);
      if (m.role === 'system') b.system += t.text + MESSAGE_TOKENS;
      else {
        b.history += t.text + MESSAGE_TOKENS;
        b.attachments += t.images;
      }
    }
    if (req.tools && req.tools.length > 0) b.tools = this.toolsTokens(req.tools);
    // The editor state goes after the conversation (api/chat/promptCache.ts): part of the history sent.
    if (req.environment) b.history += rawTextTokens(req.environment) + MESSAGE_TOKENS;
    const quoted = attachmentTexts.reduce((n, s) => n + rawTextTokens(s), 0);
    const moved = Math.min(quoted, b.history);
    b.history -= moved;
    b.attachments += moved;
    return b;
  }

  private toolsTokens(tools: NonNullable<ChatRequest['tools']>): number {
    const known = this.toolTokens.get(tools);
    if (known?.length === tools.length) return known.tokens;
    const n = rawTextTokens(JSON.stringify(tools));
    this.toolTokens.set(tools, { length: tools.length, tokens: n });
    return n;
  }
}

function messageTokens(m: WireMessage): { text: number; images: number } {
  let text = 0;
  let images = 0;
  const content: string | ContentPart[] | null = m.content;
  if (typeof content === 'string') text += rawTextTokens(content);
  else if (Array.isArray(content))
    for (const p of content) {
      if (p.type === 'text') text += rawTextTokens(p.text);
      else images += IMAGE_TOKENS;
    }
  if (m.role === 'assistant') {
    for (const c of m.tool_calls ?? [])
      text += rawTextTokens(c.function.name) + rawTextTokens(c.function.arguments) + 3;
    if (m.reasoning_content) text += rawTextTokens(m.reasoning_content);
  }
  return { text, images };
}

/**
 * The tokens kept free for the answer: the `max_tokens` setting when set, else the model's
 * output limit, never more than a quarter of the window (an answer that needs more than that
 * gets `finish_reason: length` and Continue), nor less than 1.
 */
export function answerReserve(window: number, maxTokens: number | undefined, maxOutput: number | undefined): number {
  const wanted = maxTokens ?? maxOutput ?? 4096;
  return Math.max(1, Math.min(wanted, Math.floor(window / 4)));
}
