/**
 * One model's price on every profile that lists it (issue 39), cheapest first. Prices are the
 * gateways' own (`/api/pricing` × the key's group ratio, as parsePricing reads them) or the
 * user's; profiles in different units are compared in dollars (quota / quota_per_unit), which
 * is how new-api turns quota into money whatever it displays.
 */
import type { MoneyUnit } from '../../../shared/money';
import type { ModelPrice } from './pricing';

export interface ProfilePrices {
  profile: string;
  unit: MoneyUnit;
  prices: readonly ModelPrice[];
}

export interface PriceOffer {
  profile: string;
  unit: MoneyUnit;
  price: ModelPrice;
  /** Dollars for one million prompt plus one million completion tokens, or for one call; the sort key. */
  dollars: number;
}

/** The sort key of a price: 1M in + 1M out tokens, else one call, else one second; Infinity without a figure. */
export function comparableDollars(p: ModelPrice, unit: MoneyUnit): number {
  const q = unit.quotaPerUnit;
  if (p.input !== undefined || p.output !== undefined)
    return (((p.input ?? p.output ?? 0) + (p.output ?? p.input ?? 0)) * 1e6) / q;
  if (p.perCall !== undefined) return p.perCall / q;
  if (p.perSecond !== undefined) return p.perSecond / q;
  return Number.POSITIVE_INFINITY;
}

/** Per model (sorted by name), the profiles that price it, cheapest first (ties by profile name). */
export function comparePrices(books: readonly ProfilePrices[]): Map<string, PriceOffer[]> {
  const out = new Map<string, PriceOffer[]>();
  for (const b of books)
    for (const price of b.prices) {
      const dollars = comparableDollars(price, b.unit);
      if (!Number.isFinite(dollars)) continue;
      const list = out.get(price.model) ?? [];
      list.push({ profile: b.profile, unit: b.unit, price, dollars });
      out.set(price.model, list);
    }
  for (const list of out.values()) list.sort((a, b) => a.dollars - b.dollars || a.profile.localeCompare(b.profile));
  return new Map([...out.entries()].sort(([a], [b]) => a.localeCompare(b)));
}
