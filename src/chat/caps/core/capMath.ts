/**
 * The arithmetic of spend caps, in whole quota units of one gateway's unit (`src/shared/money.ts`).
 *
 * The rule: a request is sent only when what the scope (the turn, the conversation, today) has
 * spent plus the estimate of that request's prompt at the model's input price fits in the cap.
 * What was spent is always the answers' own costs (the gateway's usage × price, or its reported
 * figure), never an earlier estimate, so estimates' errors do not add up: after the request the
 * scope has spent at most `cap + (actual − estimate)` of that one request. **A cap is never
 * exceeded by more than one request's estimate error** (its completion and the prompt count's
 * miss; bounded by the step's "at most" figure minus its prompt estimate while the gateway keeps
 * to `max_tokens`). `test/unit/chat/caps/core/capMath.test.ts` checks the bound over random loops.
 */
import type { MoneyUnit } from '../../../shared/money';

export type CapKind = 'turn' | 'conversation' | 'daily';

/** The caps in force, in quota units; an absent one is no cap. */
export type CapLimits = Partial<Record<CapKind, number>>;

/** What each scope has spent so far, in quota units (`daily` only when the daily limit blocks). */
export type Spent = Partial<Record<CapKind, number>>;

/** The next request's cost: its prompt at the input price, and at most with its whole answer room. */
export interface StepCost {
  prompt: number;
  atMost: number;
}

/** Why the loop pauses: the scope, its figures, and how far Continue would let it go. */
export interface CapBreach {
  kind: CapKind;
  spent: number;
  cap: number;
  prompt: number;
  atMost: number;
  /** The cap Continue sets: room for another cap's worth from here, and at least for this step. */
  upTo: number;
}

/** Checked in this order: the narrowest scope first, so Continue on it leads to the next one. */
export const CAP_KINDS: readonly CapKind[] = ['turn', 'conversation', 'daily'];

/** The first cap the step would pass, or undefined when every scope has room for its prompt. */
export function capBreach(limits: CapLimits, spent: Spent, step: StepCost): CapBreach | undefined {
  for (const kind of CAP_KINDS) {
    const cap = limits[kind];
    if (cap === undefined) continue;
    const s = spent[kind] ?? 0;
    if (s + step.prompt <= cap) continue;
    return { kind, spent: s, cap, prompt: step.prompt, atMost: step.atMost, upTo: continueUpTo(s, cap, step) };
  }
  return undefined;
}

/**
 * The raised cap "Continue up to …" offers: what was spent plus one more cap's worth, and never
 * less than what lets this step through (a single prompt larger than the cap).
 */
export function continueUpTo(spent: number, cap: number, step: StepCost): number {
  return spent + Math.max(cap, step.atMost, step.prompt);
}

/** The cost of a step from its token counts and the model's price per token (quota units). */
export function stepCost(
  tokens: { prompt: number; maxAnswer: number },
  price: { input: number; output?: number; perCall?: number },
): StepCost {
  // A model billed per request (new-api's `quota_type` 1) costs its price whatever the tokens.
  const call = Math.ceil(price.perCall ?? 0);
  const prompt = call + Math.ceil(Math.max(0, tokens.prompt) * price.input);
  const answer = Math.ceil(Math.max(0, tokens.maxAnswer) * (price.output ?? price.input));
  return { prompt, atMost: prompt + answer };
}

const MICRO = 1_000_000;

/** A figure in the unit's display form (dollars, yuan, tokens) as quota units. */
export function displayToQuota(value: number, unit: MoneyUnit): number {
  if (unit.kind === 'TOKENS') return Math.round(value);
  return Math.round((value * unit.quotaPerUnit * MICRO) / unit.rateMicro);
}

/** Quota units as the display figure a setting holds, rounded up at 6 decimals (a raised cap never shrinks). */
export function quotaToDisplay(quota: number, unit: MoneyUnit): number {
  if (unit.kind === 'TOKENS') return Math.ceil(quota);
  return Math.ceil(((quota * unit.rateMicro) / (unit.quotaPerUnit * MICRO)) * 1e6) / 1e6;
}

/** A cap as the user wrote it (a setting, the gear panel): a positive number, none, or a problem to show. */
export type CapValue = { ok: true; cap?: number } | { ok: false; problem: 'not-a-number' | 'not-positive' };

/** Checks a cap value: unset (undefined, null, '') is no cap; 0, a negative number or text is a problem. */
export function readCap(value: unknown): CapValue {
  if (value === undefined || value === null || value === '') return { ok: true };
  if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, problem: 'not-a-number' };
  if (value <= 0) return { ok: false, problem: 'not-positive' };
  return { ok: true, cap: value };
}
