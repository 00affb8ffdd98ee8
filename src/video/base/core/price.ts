/**
 * The board's total before anything is sent. The spend bridge prices one clip at a time, in the
 * gateway's display unit (`¥0.80`, `$0.11`, `1,200 tokens`); the total is the sum of the clips'
 * quota units written in the same unit as one of them, so no second money formatter is needed.
 */
import * as l10n from '@vscode/l10n';

export type ClipQuote = { known: true; quota: number; amount: string } | { known: false };

/** `amount` rewritten for `quota` units, keeping its symbol, decimals and grouping. */
export function scaleAmount(amount: string, quota: number, toQuota: number): string {
  const m = /\d[\d,]*(?:\.(\d+))?/.exec(amount);
  if (!m || quota <= 0) return amount;
  const value = Number(m[0].replace(/,/g, ''));
  const decimals = m[1]?.length ?? 0;
  const scaled = (value * toQuota) / quota;
  const grouped = m[0].includes(',');
  const text = scaled.toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: grouped,
  });
  return amount.slice(0, m.index) + text + amount.slice(m.index + m[0].length);
}

/** "estimated ¥3.20 in all" when every clip has a price; otherwise what is known and what is not. */
export function totalLine(quotes: readonly ClipQuote[]): string | undefined {
  if (quotes.length === 0) return undefined;
  const known = quotes.filter((q): q is Extract<ClipQuote, { known: true }> => q.known);
  const ref = known.find((q) => q.quota > 0) ?? known[0];
  if (!ref) return l10n.t('price unknown (no prices for these models yet)');
  const sum = known.reduce((a, q) => a + q.quota, 0);
  const total = ref.quota > 0 ? scaleAmount(ref.amount, ref.quota, sum) : ref.amount;
  return known.length === quotes.length
    ? l10n.t('estimated {0} in all', total)
    : l10n.t('estimated {0} for {1} of {2} clips; the others have no price yet', total, known.length, quotes.length);
}
