/**
 * What each balance source answers, validated and turned into quota units. None of these
 * endpoints is in the gateway's spec, so every field is checked: a negative, a string, NaN, a
 * huge figure or an error object gives a reason (for the log) instead of a number.
 * Shapes: new-api controller/misc.go (`/api/status`), token.go (`/api/usage/token`), billing.go
 * (`/v1/dashboard/billing/*`, whose `_usd` fields are in the site's display unit, whose
 * `total_usage` is ×100, and whose unlimited key reports 100000000).
 */
import * as z from '../../../shared/zod';
import { cleanSymbol, MAX_QUOTA, quotaFromDisplay, unitFromStatus, type MoneyUnit } from './money';

export type Parsed<T> = { ok: true; value: T } | { ok: false; why: string };

export interface BalanceFigures {
  /** Quota units left; undefined when `unlimited`. */
  quota?: number;
  unlimited: boolean;
  /** When the key expires (ms since the epoch); undefined for never. */
  expiresAt?: number;
  unit: MoneyUnit;
}

export interface StatusInfo {
  unit: MoneyUnit;
  topUpLink?: string;
}

/** The dashboard's stand-in for "no limit" (billing.go). */
export const DASHBOARD_UNLIMITED = 100000000;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A printable, short excerpt of a gateway's own words. */
function words(v: unknown): string {
  return String(v)
    .replace(/[^\P{C}\s]/gu, '')
    .replace(/\s+/g, ' ')
    .slice(0, 120);
}

/** The error a relay put in a 200 answer (`{error: {...}}`, `{success: false}`, `{code: false}`), if any. */
export function errorIn(body: unknown): string | undefined {
  if (!isObj(body)) return undefined;
  if (body.error !== undefined && body.error !== null) {
    const e = body.error;
    return `answered an error: ${words(isObj(e) ? (e.message ?? e.type ?? 'no message') : e)}`;
  }
  if (body.success === false || body.code === false) return `answered an error: ${words(body.message ?? 'no message')}`;
  return undefined;
}

function checkQuota(v: number, what: string): string | undefined {
  if (!Number.isFinite(v)) return `${what} is not a finite number`;
  if (v < 0) return `${what} is negative (${v})`;
  if (v > MAX_QUOTA) return `${what} is implausibly large (${v})`;
  return undefined;
}

/** Seconds (new-api) or milliseconds since the epoch; 0 and -1 mean never. */
function expiry(v: number | undefined): number | undefined {
  if (v === undefined || !Number.isFinite(v) || v <= 0) return undefined;
  return v > 1e11 ? v : v * 1000;
}

/** Only an http(s) link is offered to open. */
function httpLink(v: string | undefined): string | undefined {
  if (!v) return undefined;
  try {
    const u = new URL(v.trim());
    return /^https?:$/.test(u.protocol) && v.length <= 500 ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

const num = z.optional(z.number());
const statusSchema = z.object({
  data: z.object({
    quota_per_unit: num,
    quota_display_type: z.optional(z.string()),
    display_in_currency: z.optional(z.boolean()),
    usd_exchange_rate: num,
    custom_currency_symbol: z.optional(z.string()),
    custom_currency_exchange_rate: num,
    top_up_link: z.optional(z.string()),
  }),
});

/** `GET /api/status`: the unit quota is shown in. Not new-api when neither unit field is there. */
export function parseStatus(body: unknown): Parsed<StatusInfo> {
  const err = errorIn(body);
  if (err) return { ok: false, why: err };
  const r = statusSchema.safeParse(body);
  if (!r.success) return { ok: false, why: `unexpected shape at ${r.error.issues[0]?.path.join('.') ?? 'the body'}` };
  const d = r.data.data;
  if (d.quota_per_unit === undefined && d.quota_display_type === undefined)
    return { ok: false, why: 'no quota_per_unit or quota_display_type' };
  // Older new-api has only the boolean: currency (USD) or tokens.
  const displayType = d.quota_display_type ?? (d.display_in_currency === false ? 'TOKENS' : 'USD');
  const unit = unitFromStatus({
    displayType,
    quotaPerUnit: d.quota_per_unit,
    usdExchangeRate: d.usd_exchange_rate,
    customSymbol: d.custom_currency_symbol,
    customRate: d.custom_currency_exchange_rate,
  });
  return { ok: true, value: { unit, topUpLink: httpLink(d.top_up_link) } };
}

const tokenUsageSchema = z.object({
  data: z.object({
    total_available: z.number(),
    unlimited_quota: z.optional(z.boolean()),
    expires_at: num,
  }),
});

/** `GET /api/usage/token` (the key): quota left, unlimited, expiry. */
export function parseTokenUsage(body: unknown, unit: MoneyUnit): Parsed<BalanceFigures> {
  const err = errorIn(body);
  if (err) return { ok: false, why: err };
  const r = tokenUsageSchema.safeParse(body);
  if (!r.success) return { ok: false, why: `unexpected shape at ${r.error.issues[0]?.path.join('.') ?? 'the body'}` };
  const d = r.data.data;
  const expiresAt = expiry(d.expires_at);
  if (d.unlimited_quota === true) return { ok: true, value: { unlimited: true, expiresAt, unit } };
  const bad = checkQuota(d.total_available, 'total_available');
  if (bad) return { ok: false, why: bad };
  return { ok: true, value: { quota: Math.round(d.total_available), unlimited: false, expiresAt, unit } };
}

const subscriptionSchema = z.object({ hard_limit_usd: z.number(), access_until: num });
const usageSchema = z.object({ total_usage: z.number() });

/**
 * The `/dashboard/billing` pair: the balance is `hard_limit_usd - total_usage / 100`, both in the
 * site's display unit (`unit`, from `/api/status` when the gateway has it, else dollars).
 */
export function parseDashboard(subscription: unknown, usage: unknown, unit: MoneyUnit): Parsed<BalanceFigures> {
  const err = errorIn(subscription) ?? errorIn(usage);
  if (err) return { ok: false, why: err };
  const s = subscriptionSchema.safeParse(subscription);
  if (!s.success)
    return { ok: false, why: `subscription: unexpected shape at ${s.error.issues[0]?.path.join('.') ?? 'the body'}` };
  const expiresAt = expiry(s.data.access_until);
  if (s.data.hard_limit_usd === DASHBOARD_UNLIMITED) return { ok: true, value: { unlimited: true, expiresAt, unit } };
  const u = usageSchema.safeParse(usage);
  if (!u.success)
    return { ok: false, why: `usage: unexpected shape at ${u.error.issues[0]?.path.join('.') ?? 'the body'}` };
  const limit = quotaFromDisplay(s.data.hard_limit_usd, unit);
  const used = quotaFromDisplay(u.data.total_usage / 100, unit);
  const bad =
    checkQuota(limit, 'hard_limit_usd') ?? checkQuota(used, 'total_usage') ?? checkQuota(limit - used, 'the balance');
  if (bad) return { ok: false, why: bad };
  return { ok: true, value: { quota: limit - used, unlimited: false, expiresAt, unit } };
}

/** A value at a JSON path: `data.balance`, `$.data.items[0].balance`. Own properties only. */
export function atPath(body: unknown, path: string): unknown {
  const parts = path
    .trim()
    .replace(/^\$\.?/, '')
    .split(/\.|\[(\d+)\]/)
    .filter((p): p is string => p !== undefined && p !== '');
  let v: unknown = body;
  for (const p of parts) {
    if (Array.isArray(v) && /^\d+$/.test(p)) v = v[Number(p)];
    else if (isObj(v) && Object.prototype.hasOwnProperty.call(v, p)) v = v[p];
    else return undefined;
  }
  return v;
}

/** The unit a custom source's currency field names: a code (USD, CNY, TOKENS) or a symbol. */
export function unitFromCurrency(currency: unknown): MoneyUnit {
  const c = typeof currency === 'string' ? currency.trim() : '';
  const base = { quotaPerUnit: 1_000_000, rateMicro: 1_000_000 };
  const up = c.toUpperCase();
  if (up === 'CNY' || up === 'RMB' || c === '¥' || c === '￥') return { kind: 'CNY', ...base, symbol: '¥' };
  if (up === 'TOKENS' || up === 'TOKEN') return { kind: 'TOKENS', ...base, symbol: '' };
  if (up === '' || up === 'USD' || c === '$') return { kind: 'USD', ...base, symbol: '$' };
  return { kind: 'CUSTOM', ...base, symbol: cleanSymbol(c, '¤') };
}

/** A user-configured source: a number at `balancePath`, the currency at `currencyPath` (default dollars). */
export function parseCustom(body: unknown, balancePath: string, currencyPath?: string): Parsed<BalanceFigures> {
  const err = errorIn(body);
  if (err) return { ok: false, why: err };
  const value = atPath(body, balancePath);
  if (typeof value !== 'number') return { ok: false, why: `${balancePath} is not a number (${typeof value})` };
  const unit = unitFromCurrency(currencyPath ? atPath(body, currencyPath) : undefined);
  if (!Number.isFinite(value) || value < 0) return { ok: false, why: `${balancePath} is ${value}` };
  const quota = quotaFromDisplay(value, unit);
  const bad = checkQuota(quota, balancePath);
  if (bad) return { ok: false, why: bad };
  return { ok: true, value: { quota, unlimited: false, unit } };
}
