/**
 * The cost of one answer as the chat stores it: the gateway's own report when it made one, else
 * the gateway's usage × the model's price, in whole
 * quota units of the gateway's unit. Without usage, the tokens the chat counted give a figure
 * marked as an estimate; without a price there is no figure, only the mark and its reason.
 */
import type { MoneyUnit } from '../../../shared/money';
import type { AnswerCost } from '../../../shared/protocol/cost';
import type { ModelPrice } from '../../pricing/core/pricing';
import { answerCost, type UsageCounts } from './cost';
import { reportedCostIn } from '../../../api/chat/gatewayCost';

export interface AnswerPriceQuery {
  usage?: UsageCounts;
  /** Tokens counted by the client, for an answer the gateway reported no usage for. */
  estimated?: { prompt_tokens: number; completion_tokens: number };
  /** The gateway's own figure (src/api/chat/gatewayCost.ts), checked here. */
  reported?: unknown;
}

/** Dollars as quota units of `unit` (quota / quota_per_unit is dollars, whatever the display unit). */
export function quotaOfDollars(usd: number, unit: MoneyUnit): number {
  return Math.round(usd * unit.quotaPerUnit);
}

/**
 * The prompt's cached share (issue 39: prompt caching) and what it saved against the full input
 * price; undefined when the gateway reported no cached tokens.
 */
export function cachedShare(usage: UsageCounts | undefined, price: ModelPrice | undefined): AnswerCost['cached'] {
  const prompt = usage?.prompt_tokens ?? 0;
  const cached = Math.min(prompt, usage?.prompt_tokens_details?.cached_tokens ?? 0);
  if (!(prompt > 0 && cached > 0)) return undefined;
  const percent = Math.min(100, Math.max(0, Math.round((cached / prompt) * 100)));
  const { input, cachedInput } = price ?? {};
  if (input === undefined || cachedInput === undefined || !(cachedInput < input)) return { percent };
  return { percent, saved: Math.round(cached * (input - cachedInput)) };
}

/** The gateway's reported cost wins over usage × price (issue 39); the answer says which it is. */
export function priceOfAnswer(q: AnswerPriceQuery, price: ModelPrice | undefined, unit: MoneyUnit): AnswerCost {
  const cost = priceOnly(q, price, unit);
  const cached = cachedShare(q.usage, price);
  return cached ? { ...cost, cached } : cost;
}

function priceOnly(q: AnswerPriceQuery, price: ModelPrice | undefined, unit: MoneyUnit): AnswerCost {
  const reported = reportedCostIn(q.reported !== undefined ? { reported_cost: q.reported } : q.usage);
  if (reported) return { quota: quotaOfDollars(reported.usd, unit), unit, estimate: false, reportedBy: reported.from };
  const exact = answerCost(q.usage, price);
  // The cost line's tooltip says where the price came from (issue 43).
  const priceFrom = price ? { priceFrom: price.source } : {};
  if (exact.quota !== undefined) return { quota: exact.quota, unit, estimate: false, ...priceFrom };
  if (exact.reason === 'no-usage' && q.estimated) {
    const guess = answerCost(q.estimated, price);
    if (guess.quota !== undefined)
      return { quota: guess.quota, unit, estimate: true, reason: 'no-usage', ...priceFrom };
  }
  return { unit, estimate: true, reason: exact.reason ?? 'no-price' };
}
