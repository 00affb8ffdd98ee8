/**
 * How one model is asked (issue 22 item 2): its protocol, a reasoning effort, sampling values and
 * extra body fields, from `gatewayStudio.models.overrides`, and its variants (the same model id
 * listed again under another name with another body). Plain data and checks; the client applies
 * them (client.ts, at the boundary, so nothing above it knows which protocol answered).
 */

/** The wire protocol a model answers on. */
export type Protocol = 'chat' | 'responses';

/** Sampling values a model entry may fix (wire names of the chat request). */
export interface Sampling {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
}

/** What a model (or one of its variants) is sent with. */
export interface ModelCallSettings {
  protocol?: Protocol;
  /** Deep-merged into the request body; a `null` value deletes that key. */
  extraBody?: Record<string, unknown>;
  /** `reasoning_effort` on chat completions, `reasoning.effort` on responses. */
  reasoningEffort?: string;
  sampling?: Sampling;
  /** The model id on the wire, for a variant (whose own id is `<model>#<variant>`). */
  wireModel?: string;
  /** How the model is asked for its prompt cache (chat/promptCache.ts); `auto` or absent: its family's default. */
  promptCache?: CacheSetting;
  /** Search the web where the relay offers it: OpenRouter's web plugin, the Responses `web_search` tool. */
  webSearch?: boolean;
  /** Why the entry cannot be used (a refused `extraBody`): the request fails with this. */
  problem?: string;
}

import { mergeBody } from './mergeBody';
import { CACHE_SETTINGS, type CacheSetting } from '../chat/promptCache';

/** The separator of a variant's id: `gpt-5#thinking` is the variant "thinking" of `gpt-5`. */
export const VARIANT_MARK = '#';

/** Body keys `extraBody` may not set: they would rewrite the conversation, its tools or where it is kept. */
const PROTECTED = new Set([
  'model',
  'messages',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'stream',
  'store',
  'previous_response_id',
]);

const EFFORTS = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
const SAMPLING: Record<keyof Sampling, [number, number, boolean]> = {
  temperature: [0, 2, false],
  top_p: [0, 1, false],
  max_tokens: [1, 10_000_000, true],
  presence_penalty: [-2, 2, false],
  frequency_penalty: [-2, 2, false],
};
/** The setting's names for the sampling values (camelCase like the chat settings), to wire names. */
const SAMPLING_KEYS: Record<string, keyof Sampling> = {
  temperature: 'temperature',
  topP: 'top_p',
  maxTokens: 'max_tokens',
  presencePenalty: 'presence_penalty',
  frequencyPenalty: 'frequency_penalty',
};

function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** One entry (or variant) read; `where` names it in problems (`gatewayStudio.models.overrides["gpt-5"]`). */
function readEntry(raw: Record<string, unknown>, where: string, problems: string[]): ModelCallSettings {
  const out: ModelCallSettings = {};
  if (raw.protocol !== undefined) {
    if (raw.protocol === 'chat' || raw.protocol === 'responses') out.protocol = raw.protocol;
    else problems.push(`${where}.protocol must be "chat" or "responses"; it is ${JSON.stringify(raw.protocol)}.`);
  }
  if (raw.reasoningEffort !== undefined) {
    if (typeof raw.reasoningEffort === 'string' && EFFORTS.has(raw.reasoningEffort))
      out.reasoningEffort = raw.reasoningEffort;
    else
      problems.push(
        `${where}.reasoningEffort must be one of ${[...EFFORTS].join(', ')}; it is ${JSON.stringify(raw.reasoningEffort)}.`,
      );
  }
  if (raw.promptCache !== undefined) {
    if ((CACHE_SETTINGS as readonly unknown[]).includes(raw.promptCache))
      out.promptCache = raw.promptCache as CacheSetting;
    else
      problems.push(
        `${where}.promptCache must be one of ${CACHE_SETTINGS.join(', ')}; it is ${JSON.stringify(raw.promptCache)}.`,
      );
  }
  const sampling: Sampling = {};
  for (const [key, wire] of Object.entries(SAMPLING_KEYS)) {
    const v = raw[key];
    if (v === undefined) continue;
    const [lo, hi, integer] = SAMPLING[wire];
    if (typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi && (!integer || Number.isInteger(v)))
      sampling[wire] = v;
    else problems.push(`${where}.${key} must be a number from ${lo} to ${hi}; it is ${JSON.stringify(v)}.`);
  }
  if (Object.keys(sampling).length > 0) out.sampling = sampling;
  if (raw.webSearch !== undefined) {
    if (typeof raw.webSearch === 'boolean') out.webSearch = raw.webSearch;
    else problems.push(`${where}.webSearch must be true or false; it is ${JSON.stringify(raw.webSearch)}.`);
  }
  if (raw.extraBody !== undefined) {
    const body = obj(raw.extraBody);
    if (!body) {
      out.problem = `${where}.extraBody must be an object of body fields; it is ${JSON.stringify(raw.extraBody)}.`;
      problems.push(out.problem);
    } else {
      const bad = Object.keys(body).filter((k) => PROTECTED.has(k));
      if (bad.length > 0) {
        out.problem = `${where}.extraBody may not set ${bad.join(', ')}: the conversation, its tools and where it is kept are the extension's.`;
        problems.push(out.problem);
      } else out.extraBody = body;
    }
  }
  return out;
}

/** Every model's call settings, variants included under `<model>#<variant>`, and what was wrong. */
export interface ModelCalls {
  byId: Record<string, ModelCallSettings>;
  /** Variant ids per listed model id, in the order the setting has them. */
  variants: Record<string, string[]>;
  problems: string[];
}

/**
 * Reads the call fields of `gatewayStudio.models.overrides`. A variant inherits its model's entry
 * and overrides what it sets (its `extraBody` merged over the model's).
 */
export function readModelCalls(raw: unknown, setting = 'gatewayStudio.models.overrides'): ModelCalls {
  const out: ModelCalls = { byId: {}, variants: {}, problems: [] };
  for (const [id, v] of Object.entries(obj(raw) ?? {})) {
    const entry = obj(v);
    if (!entry) continue;
    const where = `${setting}[${JSON.stringify(id)}]`;
    const base = readEntry(entry, where, out.problems);
    out.byId[id] = base;
    const variants = entry.variants === undefined ? undefined : obj(entry.variants);
    if (entry.variants !== undefined && !variants) {
      out.problems.push(
        `${where}.variants must be an object of named variants; it is ${JSON.stringify(entry.variants)}.`,
      );
      continue;
    }
    for (const [name, vv] of Object.entries(variants ?? {})) {
      const ve = obj(vv);
      if (!/^[\w.-]{1,32}$/.test(name) || !ve) {
        out.problems.push(
          `${where}.variants[${JSON.stringify(name)}] needs a short name (letters, digits, . _ -) and an object.`,
        );
        continue;
      }
      const own = readEntry(ve, `${where}.variants[${JSON.stringify(name)}]`, out.problems);
      const vid = `${id}${VARIANT_MARK}${name}`;
      out.byId[vid] = {
        ...base,
        ...own,
        sampling: base.sampling || own.sampling ? { ...base.sampling, ...own.sampling } : undefined,
        extraBody: base.extraBody || own.extraBody ? mergeBody(base.extraBody ?? {}, own.extraBody ?? {}) : undefined,
        problem: own.problem ?? base.problem,
        wireModel: id,
      };
      (out.variants[id] ??= []).push(vid);
    }
  }
  return out;
}
