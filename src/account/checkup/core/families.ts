/**
 * The tokenizer fingerprint's fixed data: the probe strings and, per tokenizer family, how many
 * tokens each string encodes to. The counts were computed ahead of time from the families'
 * vocabularies (test/support/tiktokenVocab.ts; `families.test.ts` recomputes them), so the
 * product ships no vocabulary. Only families whose vocabulary this project can read are listed:
 * o200k and cl100k (others name themselves in `claimedFamily` and are reported as "no table row").
 */

/**
 * Text that different vocabularies cut differently (CJK, Cyrillic, Devanagari, code, numbers,
 * accented Latin, contractions). The first is the baseline: each probe's count minus the
 * baseline's cancels the tokens the relay's chat template adds around every message.
 */
export const PROBE_STRINGS: readonly string[] = [
  'Hi',
  '人工智能正在改变我们编写软件和检查账单的方式。',
  'Проверка: какая модель на самом деле отвечает на этот запрос?',
  'यह जाँच बताती है कि कौन सा मॉडल उत्तर दे रहा है।',
  'def tally(xs):\n    return {k: len(v) for k, v in xs.items() if v}\n',
  'Invoice #20261128: 3,141.59 USD; 2.718e-3 per 1K tokens (±0.5%).',
  'Ünïcödé façade: naïve café, jalapeño, Ærøskøbing, straße ✓ 🚀',
  "They're sure it'll work, aren't they? We've checked twice.",
];

export type FamilyId = 'o200k' | 'cl100k' | 'claude' | 'gemini' | 'qwen' | 'deepseek' | 'llama';

export interface TokenizerFamily {
  id: FamilyId;
  label: string;
  /** Tokens of each of {@link PROBE_STRINGS}, in order, without any template. */
  counts: readonly number[];
}

/** The families the fingerprint can name (the counts are checked by the unit test). */
export const FAMILIES: readonly TokenizerFamily[] = [
  { id: 'o200k', label: 'o200k (GPT-4o, GPT-4.1, GPT-5, o-series)', counts: [1, 15, 14, 15, 23, 32, 27, 12] },
  { id: 'cl100k', label: 'cl100k (GPT-4, GPT-3.5)', counts: [1, 21, 22, 50, 23, 32, 33, 16] },
];

const FAMILY_LABELS: Readonly<Record<FamilyId, string>> = {
  o200k: 'o200k',
  cl100k: 'cl100k',
  claude: 'Claude',
  gemini: 'Gemini',
  qwen: 'Qwen',
  deepseek: 'DeepSeek',
  llama: 'Llama',
};

export function familyLabel(id: FamilyId): string {
  return FAMILIES.find((f) => f.id === id)?.label ?? FAMILY_LABELS[id];
}

// Order matters: the first rule that matches the name wins (gpt-4o before gpt-4).
const CLAIMS: ReadonlyArray<[RegExp, FamilyId]> = [
  [/(^|[/:-])(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|gpt-oss|chatgpt-4o)([-.:]|$)/i, 'o200k'],
  [/(^|[/:-])(gpt-4|gpt-3\.5|gpt-35)([-.:]|$)/i, 'cl100k'],
  [/claude/i, 'claude'],
  [/gemini|gemma/i, 'gemini'],
  [/qwen|qwq/i, 'qwen'],
  [/deepseek/i, 'deepseek'],
  [/llama/i, 'llama'],
];

/** The family a model's name claims (`openai/gpt-4o-mini` → o200k), or undefined when the name says none. */
export function claimedFamily(model: string): FamilyId | undefined {
  return CLAIMS.find(([re]) => re.test(model))?.[1];
}
