/**
 * Money as relays count it: whole quota units, turned into the site's display unit only when
 * shown. `quota / quota_per_unit` is dollars; × the exchange rate for CNY or a custom currency;
 * a TOKENS site shows the quota itself. All arithmetic on the way to the text is integer
 * (BigInt), so `¥12.34` never comes out as `¥12.339999`.
 */
import * as l10n from '@vscode/l10n';
import { formatMoney, type MoneyUnit } from '../../../shared/money';

export { toMinor, type MoneyUnit } from '../../../shared/money';

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

/** A value in the display unit (a `_usd` field, a custom source's figure) as quota units. */
export function quotaFromDisplay(value: number, unit: MoneyUnit): number {
  if (unit.kind === 'TOKENS') return Math.round(value);
  return Math.round((value * unit.quotaPerUnit * MICRO) / unit.rateMicro);
}

/**
 * A quota in the unit's usual form: `$3.21`, `¥12.34`, `1.2M tokens`. `precise` (the cost of one
 * answer) keeps up to four decimals below one unit, so a fraction of a cent is not shown as 0.00.
 */
export function formatQuota(quota: number, unit: MoneyUnit, o: { precise?: boolean } = {}): string {
  return formatMoney(quota, unit, { ...o, tokens: (figure) => l10n.t('{0} tokens', figure) });
}
