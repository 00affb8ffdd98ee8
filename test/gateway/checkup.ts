/**
 * The relay check-up's models (issue 41): `gpt-4o-honest` and models that lie in one known way
 * each, all listing an 8192-token window and one price. They answer the check-up's fixed prompts
 * (src/account/checkup/core: the probe strings, the tool cases) the way such a relay would.
 */
import { FAMILIES, PROBE_STRINGS } from '../../src/account/checkup/core/families';
import { TOOL_CASES } from '../../src/account/checkup/core/toolCases';
import type { Plan } from './chat';
import { pieces } from './content';
import { windowRecord, type WindowRule } from './context';

type Json = Record<string, unknown>;

interface Lie {
  /** Counts the probe strings with this family's tokenizer (the name claims o200k). */
  family?: 'cl100k';
  /** The window it really holds (refused past it, OpenAI's words). */
  window?: number;
  /** Accepts any prompt but reads (and counts) only this many tokens. */
  truncateAt?: number;
  /** Bills this multiple of its advertised price. */
  bill?: number;
  /** Of several calls in one answer, sends only the first. */
  dropParallel?: boolean;
}

export const CHECKUP_MODELS: Readonly<Record<string, Lie>> = {
  'gpt-4o-honest': {},
  'gpt-4o-swap': { family: 'cl100k' },
  'gpt-4o-halfwindow': { window: 4096 },
  'gpt-4o-truncating': { truncateAt: 4096 },
  'gpt-4o-markup': { bill: 1.5 },
  'gpt-4o-notools': { dropParallel: true },
};

/** The window every check-up model lists (`context_length`). */
export const CHECKUP_WINDOW = 8192;
/** Tokens a chat template adds to every request (cancelled by the fingerprint's differences). */
export const TEMPLATE_TOKENS = 3;
/** Advertised in `/api/pricing` for each (new-api ratios: $2.50 / $10 per million tokens). */
export const CHECKUP_PRICE: {
  quota_type: 0;
  model_ratio: number;
  completion_ratio: number;
  model_price: number;
  cache_ratio?: number;
} = { quota_type: 0, model_ratio: 1.25, completion_ratio: 4, model_price: 0 };

/** The check-up models' entries of `/api/pricing` (the markup's too: its price is advertised, not billed). */
export const CHECKUP_PRICES: Readonly<Record<string, typeof CHECKUP_PRICE>> = Object.fromEntries(
  Object.keys(CHECKUP_MODELS).map((id) => [id, CHECKUP_PRICE]),
);

export const isCheckupModel = (id: unknown): id is string => typeof id === 'string' && id in CHECKUP_MODELS;

/** What `/api/pricing` lists and `chatQuota` charges for the check-up models, with the markup's factor. */
export function checkupPrice(model: string): (typeof CHECKUP_PRICE & { factor: number }) | undefined {
  const lie = CHECKUP_MODELS[model];
  return lie ? { ...CHECKUP_PRICE, factor: lie.bill ?? 1 } : undefined;
}

export function checkupRecords(): Json[] {
  return Object.keys(CHECKUP_MODELS).map((id) =>
    windowRecord(id, { window: CHECKUP_WINDOW, shape: 'openai', field: 'context_length' }),
  );
}

/** The window it serves: the half window refuses past 4096; the truncating one never refuses. */
export function checkupRule(id: string): WindowRule {
  const lie = CHECKUP_MODELS[id] ?? {};
  const window = lie.window ?? (lie.truncateAt ? Number.MAX_SAFE_INTEGER : CHECKUP_WINDOW);
  return { window, shape: 'openai', field: 'context_length' };
}

const textOf = (c: unknown): string =>
  typeof c === 'string'
    ? c
    : Array.isArray(c)
      ? c.map((p: Json) => (typeof p?.text === 'string' ? p.text : '')).join('\n')
      : '';

const COUNTING = Array.from({ length: 400 }, (_, i) => `${i + 1},`).join(' ');

/** Rewrites the planned answer of a check-up model: its counts, its calls, its text. */
export function adjustCheckupPlan(p: Plan, body: Json): void {
  const lie = CHECKUP_MODELS[String(body.model)] ?? {};
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const family = FAMILIES.find((f) => f.id === (lie.family ?? 'o200k'))!;
  // The gateway's rule counts a message's text as ceil(characters / 4): a probe string counts by the family.
  let tokens = p.promptTokens + TEMPLATE_TOKENS;
  for (const m of messages) {
    const i = m.role === 'user' ? PROBE_STRINGS.indexOf(textOf(m.content)) : -1;
    if (i >= 0) tokens += family.counts[i]! - Math.ceil(PROBE_STRINGS[i]!.length / 4);
  }
  p.promptTokens = lie.truncateAt ? Math.min(tokens, lie.truncateAt) : tokens;
  const last = messages.at(-1);
  const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : 400;
  const say = (text: string): void => {
    const all = pieces(text);
    p.contentPieces = all.slice(0, maxTokens);
    p.content = p.contentPieces.join('');
    p.calls = [];
    p.finish = all.length > maxTokens ? 'length' : 'stop';
  };
  if (last?.role === 'tool') return say('It is 18 °C and sunny in Paris.');
  const c = TOOL_CASES.find((t) => t.id !== 'result' && t.prompt === textOf(last?.content));
  if (!c) return say(COUNTING);
  if (c.expect.length === 0) return say('Hello there.');
  const calls = lie.dropParallel ? c.expect.slice(0, 1) : c.expect;
  p.calls = calls.map((e, i) => ({
    id: `call_ck_${Date.now().toString(36)}_${i}`,
    name: e.name,
    args: JSON.stringify(e.arguments),
  }));
  p.content = '';
  p.contentPieces = [];
  p.finish = 'tool_calls';
}
