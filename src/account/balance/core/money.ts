/**
 * Money as relays count it: whole quota units, turned into the site's display unit only when
 * shown. `quota / quota_per_unit` is dollars; × the exchange rate for CNY or a custom currency;
 * a TOKENS site shows the quota itself. All arithmetic on the way to the text is integer
 * (BigInt), so `¥12.34` never comes out as `¥12.339999`.
 */
import * as l10n from '@vscode/l10n';

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

/** new-api's default, used when a gateway states none. */
export const DEFAULT_QUOTA_PER_UNIT = 500_000;
/** The largest quota taken as a real figure: beyond it an answer is treated as hostile. */
export const MAX_QUOTA = 1e15;
const MICRO = 1_000_000;

export const USD: MoneyUnit = { kind: 'USD', quotaPerUnit: DEFAULT_QUOTA_PER_UNIT, rateMicro: MICRO, symbol: '$' };

/** A symbol a gateway chose, made safe to show: printable, short, never empty. */
export function cleanSymbol(raw: string | undefined, fallback: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const s = (raw ?? '').replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  return s === '' ? fallback : [...s].slice(0, 6).join('');
}

/** The unit a gateway's `/api/status` describes. Rates that are not positive finite numbers fall back. */
export function unitFromStatus(o: {
  displayType?: string;
  quotaPerUnit?: number;
  usdExchangeRate?: number;
  customSymbol?: string;
  customRate?: number;
}): MoneyUnit {
  const qpu =
    o.quotaPerUnit !== undefined && Number.isFinite(o.quotaPerUnit) && o.quotaPerUnit >= 1 && o.quotaPerUnit <= 1e12
      ? Math.round(o.quotaPerUnit)
      : DEFAULT_QUOTA_PER_UNIT;
  const micro = (r: number | undefined, fallback: number): number =>
    r !== undefined && Number.isFinite(r) && r > 0 && r < 1e6 ? Math.max(1, Math.round(r * MICRO)) : fallback;
  switch ((o.displayType ?? 'USD').toUpperCase()) {
    case 'CNY':
      return { kind: 'CNY', quotaPerUnit: qpu, rateMicro: micro(o.usdExchangeRate, 7_300_000), symbol: '¥' };
    case 'TOKENS':
      return { kind: 'TOKENS', quotaPerUnit: qpu, rateMicro: MICRO, symbol: '' };
    case 'CUSTOM':
      return {
        kind: 'CUSTOM',
        quotaPerUnit: qpu,
        rateMicro: micro(o.customRate, MICRO),
        symbol: cleanSymbol(o.customSymbol, '¤'),
      };
    default:
      return { ...USD, quotaPerUnit: qpu };
  }
}

/** Rounds num/den half away from zero (den > 0). */
function divRound(num: bigint, den: bigint): bigint {
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

/** A value in the display unit (a `_usd` field, a custom source's figure) as quota units. */
export function quotaFromDisplay(value: number, unit: MoneyUnit): number {
  if (unit.kind === 'TOKENS') return Math.round(value);
  return Math.round((value * unit.quotaPerUnit * MICRO) / unit.rateMicro);
}

function fixed(minor: bigint, decimals: number): string {
  const neg = minor < 0n;
  const a = neg ? -minor : minor;
  const base = 10n ** BigInt(decimals);
  const whole = (a / base).toString();
  const frac = decimals > 0 ? '.' + (a % base).toString().padStart(decimals, '0') : '';
  return (neg ? '-' : '') + whole + frac;
}

/** `1.2M tokens`, `12.3K tokens`, `850 tokens`: one decimal, dropped when it is 0. */
function tokenText(quota: number): string {
  const q = Math.round(quota);
  const a = Math.abs(q);
  const steps: Array<[number, string]> = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of steps) {
    if (a >= size) {
      const tenths = divRound(BigInt(q) * 10n, BigInt(size));
      const text = fixed(tenths, 1).replace(/\.0$/, '');
      return l10n.t('{0} tokens', text + suffix);
    }
  }
  return l10n.t('{0} tokens', String(q));
}

/**
 * A quota in the unit's usual form: `$3.21`, `¥12.34`, `1.2M tokens`. `precise` (the cost of one
 * answer) keeps up to four decimals below one unit, so a fraction of a cent is not shown as 0.00.
 */
export function formatQuota(quota: number, unit: MoneyUnit, o: { precise?: boolean } = {}): string {
  if (unit.kind === 'TOKENS') return tokenText(quota);
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
