/**
 * Money as relays count it, the part both the host and the chat page need: whole quota units
 * turned into the site's display unit only when shown, with integer (BigInt) arithmetic all the
 * way to the text, so `¥12.34` never comes out as `¥12.339999`. The account feature reads units
 * from gateways (`src/account/balance/core/money.ts`); the chat page formats the costs it stores.
 */

export type DisplayKind = 'USD' | 'CNY' | 'TOKENS' | 'CUSTOM';

export interface MoneyUnit {
  kind: DisplayKind;
  /** Quota units per US dollar (new-api's `quota_per_unit`), a whole number ≥ 1. */
  quotaPerUnit: number;
  /** Display units per US dollar in millionths (USD: 1 000 000; CNY at 7.3: 7 300 000). */
  rateMicro: number;
  /** What precedes the figure: `$`, `¥`, a custom symbol; empty for TOKENS. */
  symbol: string;
}

const MICRO = 1_000_000;

/** Rounds num/den half away from zero (den > 0). */
export function divRound(num: bigint, den: bigint): bigint {
  const neg = num < 0n;
  const a = neg ? -num : num;
  const q = (a * 2n + den) / (den * 2n);
  return neg ? -q : q;
}

/** A quota as whole `10^-decimals` display units (cents for 2). */
export function toMinor(quota: number, unit: MoneyUnit, decimals: number): bigint {
  const q = BigInt(Math.round(quota));
  if (unit.kind === 'TOKENS') return q * 10n ** BigInt(decimals);
  return divRound(q * BigInt(unit.rateMicro) * 10n ** BigInt(decimals), BigInt(unit.quotaPerUnit) * BigInt(MICRO));
}

export function fixed(minor: bigint, decimals: number): string {
  const neg = minor < 0n;
  const a = neg ? -minor : minor;
  const base = 10n ** BigInt(decimals);
  const whole = (a / base).toString();
  const frac = decimals > 0 ? '.' + (a % base).toString().padStart(decimals, '0') : '';
  return (neg ? '-' : '') + whole + frac;
}

/** `1.2M`, `12.3K`, `850`: one decimal, dropped when it is 0 (the caller adds the word "tokens"). */
export function tokenFigure(quota: number): string {
  const q = Math.round(quota);
  const a = Math.abs(q);
  const step = a >= 1e9 ? 3 : a >= 1e6 ? 2 : a >= 1e3 ? 1 : 0;
  if (step === 0) return String(q);
  return fixed(divRound(BigInt(q) * 10n, 1000n ** BigInt(step)), 1).replace(/\.0$/, '') + ' KMB'.charAt(step);
}

/**
 * A quota in the unit's usual form: `$3.21`, `¥12.34`, `1.2M tokens`. `precise` (the cost of one
 * answer) keeps up to four decimals below one unit, so a fraction of a cent is not shown as 0.00.
 * `tokens` words a TOKENS figure in the reader's language (`{0} tokens`).
 */
export function formatMoney(
  quota: number,
  unit: MoneyUnit,
  o: { precise?: boolean; tokens: (figure: string) => string },
): string {
  if (unit.kind === 'TOKENS') return o.tokens(tokenFigure(quota));
  const cents = toMinor(quota, unit, 2);
  const sign = cents < 0n ? '-' : '';
  if (o.precise && cents > -100n && cents < 100n) {
    const tenThousandths = toMinor(quota, unit, 4);
    if (tenThousandths === 0n && quota !== 0) return `<${unit.symbol}0.0001`;
    const text = fixed(tenThousandths < 0n ? -tenThousandths : tenThousandths, 4).replace(/(\.\d\d\d?)0+$/, '$1');
    return `${sign}${unit.symbol}${text.replace(/(\.\d\d)0$/, '$1')}`;
  }
  return `${sign}${unit.symbol}${fixed(cents < 0n ? -cents : cents, 2)}`;
}

/** Two units are the same when every figure of them is: only then may their quotas be added. */
export function sameUnit(a: MoneyUnit, b: MoneyUnit): boolean {
  return a.kind === b.kind && a.quotaPerUnit === b.quotaPerUnit && a.rateMicro === b.rateMicro && a.symbol === b.symbol;
}
