/**
 * The prices a request is quoted at before it is sent, for the chat's spend caps: the model's
 * per-token prices (cached prompt tokens at the full input price, so the quote is never lower
 * than the bill), or its per-call price; and today's spend against the daily limit when the user
 * set that limit to block (`gatewayStudio.spend.dailyLimitAction`).
 */
import type { MoneyUnit } from '../../balance/core/money';
import type { ModelPrice } from '../../pricing/core/pricing';

export interface RequestQuote {
  unit: MoneyUnit;
  input: number;
  output?: number;
  perCall?: number;
  daily?: { spent: number; limit: number };
}

/** The daily limit's action as the user set it; anything else is the old behaviour, a notice. */
export function dailyLimitAction(value: unknown): 'notify' | 'block' {
  return value === 'block' ? 'block' : 'notify';
}

/** The quote for `price`, or undefined without a usable price (no per-token input or per-call figure). */
export function requestQuote(
  price: ModelPrice | undefined,
  unit: MoneyUnit,
  daily?: { spent: number; limit: number },
): RequestQuote | undefined {
  if (!price) return undefined;
  const extra = daily && daily.limit > 0 ? { daily } : {};
  if (price.input === undefined && price.output === undefined) {
    return price.perCall !== undefined ? { unit, input: 0, output: 0, perCall: price.perCall, ...extra } : undefined;
  }
  const input = price.input ?? 0;
  return {
    unit,
    input,
    output: price.output ?? input,
    ...(price.perCall !== undefined ? { perCall: price.perCall } : {}),
    ...extra,
  };
}
