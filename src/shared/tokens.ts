/**
 * The client's token estimate, one rule for every feature: there is no tokenizer in the bundle
 * (see chat/context/core/contextWindow.ts for why), so text is counted by characters: about four
 * a token for Latin text and code, one token per CJK character.
 */

/** Latin text and code: characters per token before calibration. */
export const CHARS_PER_TOKEN = 4;

// CJK ideographs, kana, hangul and full-width forms: each about one token or more.
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;

/** Uncalibrated tokens of a text: CJK characters one each, the rest four characters a token. */
export function rawTextTokens(text: string): number {
  if (text === '') return 0;
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / CHARS_PER_TOKEN);
}
