/**
 * The cost of one answer as the chat stores it: the gateway's usage × the model's price, in whole
 * quota units of the gateway's unit. Without usage, the tokens the chat counted give a figure
 * marked as an estimate; without a price there is no figure, only the mark and its reason.
 */
import type { MoneyUnit } from '../../../shared/money';
import type { AnswerCost } from '../../../shared/protocol/cost';
import type { ModelPrice } from '../../pricing/core/pricing';
import { answerCost, type UsageCounts } from './cost';

export interface AnswerPriceQuery {
  usage?: UsageCounts;
  /** Tokens counted by the client, for an answer the gateway reported no usage for. */
  estimated?: { prompt_tokens: number; completion_tokens: number };
}

export function priceOfAnswer(q: AnswerPriceQuery, price: ModelPrice | undefined, unit: MoneyUnit): AnswerCost {
  const exact = answerCost(q.usage, price);
  if (exact.quota !== undefined) return { quota: exact.quota, unit, estimate: false };
  if (exact.reason === 'no-usage' && q.estimated) {
    const guess = answerCost(q.estimated, price);
    if (guess.quota !== undefined) return { quota: guess.quota, unit, estimate: true, reason: 'no-usage' };
  }
  return { unit, estimate: true, reason: exact.reason ?? 'no-price' };
}
