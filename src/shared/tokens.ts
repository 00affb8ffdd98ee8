/**
 * The client's token estimate, one rule for every feature: there is no tokenizer in the bundle
 * (see chat/context/core/contextWindow.ts for why), so text is counted by characters: about four
 * a token for Latin text and code, one token per CJK character.
 */

/** Latin text and code: characters per token before calibration. */
export const CHARS_PER_TOKEN = 4;

// CJK ideographs, kana, hangul and full-width forms: each about one token or more.
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;

/** Texts at least this long have their count kept (see {@link rawTextTokens}). */
export const KEPT_COUNT_LENGTH = 512;
/** Characters of kept texts at most: a few 100k-token conversations. */
const KEPT_CHARS = 2_000_000;
const kept = new Map<string, number>();
let keptChars = 0;

/**
 * Uncalibrated tokens of a text: CJK characters one each, the rest four characters a token.
 * A chat request repeats the whole conversation and is counted several times on its way out;
 * counting a text that holds any character past Latin-1 runs the CJK pattern over all of it
 * (~1.2 ns a character), so a 100k-token conversation in Chinese, or one with a single "…",
 * cost milliseconds a request. Long texts' counts are kept: the conversation hands the same
 * string objects to every request, and V8 keeps a string's hash in it, so a lookup is cheap.
 * Oldest out first, within {@link KEPT_CHARS}.
 */
export function rawTextTokens(text: string): number {
  if (text.length < KEPT_COUNT_LENGTH) return countTokens(text);
  const hit = kept.get(text);
  if (hit !== undefined) return hit;
  const n = countTokens(text);
  kept.set(text, n);
  keptChars += text.length;
  for (const k of kept.keys()) {
    if (keptChars <= KEPT_CHARS) break;
    kept.delete(k);
    keptChars -= k.length;
  }
  return n;
}

function countTokens(text: string): number {
  if (text === '') return 0;
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / CHARS_PER_TOKEN);
}
