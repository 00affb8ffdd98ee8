// Token estimates of VS Code's language-model messages (`provideTokenCount`).
import { classifyPart, isImageMime, isTextMime, utf8, type LmMessageLike } from './parts';

/** Tokens an image is counted as: about what a 1024x1024 picture costs at OpenAI's high detail. */
export const IMAGE_TOKENS = 765;
/** Fixed cost per message (role and separators), as OpenAI's cookbook counts it. */
const MESSAGE_TOKENS = 4;

/** The estimate: about four characters per token, which is close for English and code with GPT-style tokenizers. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Estimated tokens of a string or a message (chars / 4; images a flat {@link IMAGE_TOKENS}). The
 * gateway's tokenizers are not known to the client, so this is an estimate, not a count.
 */
export function estimateTokens(x: string | LmMessageLike): number {
  if (typeof x === 'string') return estimateTextTokens(x);
  let n = MESSAGE_TOKENS;
  const count = (parts: ReadonlyArray<unknown>): void => {
    for (const raw of parts) {
      const p = classifyPart(raw);
      if (p.kind === 'text' || p.kind === 'thinking') n += estimateTextTokens(p.text);
      else if (p.kind === 'toolCall') n += estimateTextTokens(p.name + JSON.stringify(p.input ?? {}));
      else if (p.kind === 'toolResult') count(p.content);
      else if (p.kind === 'data')
        n += isImageMime(p.mimeType) ? IMAGE_TOKENS : isTextMime(p.mimeType) ? estimateTextTokens(utf8(p.data)) : 0;
    }
  };
  count(Array.isArray(x.content) ? x.content : []);
  return n;
}
