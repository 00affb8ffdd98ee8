/**
 * What each balance source answers, validated and turned into quota units. None of these
 * endpoints is in the gateway's spec, so every field is checked: a negative, a string, NaN, a
 * huge figure or an error object gives a reason (for the log) instead of a number.
 * Shapes: new-api controller/misc.go (`/api/status`), token.go (`/api/usage/token`), billing.go
 * (`/v1/dashboard/billing/*`, whose `_usd` fields are in the site's display unit, whose
 * `total_usage` is ×100, and whose unlimited key reports 100000000); OpenRouter `/api/v1/key` and
 * `/api/v1/credits`, LiteLLM `/key/info` (docs/relay-billing.md has the documented bodies).
 */
import * as z from '../../../shared/zod';
import { cleanSymbol, MAX_QUOTA, quotaFromDisplay, unitFromStatus, USD, type MoneyUnit } from './money';

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

/**
 * Whether a key a gateway names in masked form (`sk-or-v1-au7...890`, LiteLLM's `sk-...abcd`) is
 * this key: true, false, or undefined when the text is not a masked key (a label the user chose).
 */
export type KeyCheck = (masked: string) => boolean | undefined;

/** A {@link KeyCheck} against `key`. The key itself never leaves this closure. */
export function maskedKeyCheck(key: string): KeyCheck {
  return (masked) => {
    const m = /^(\S*?)(?:\.{3}|…)(\S*)$/.exec(masked.trim());
    if (!m) return undefined;
    const [, head = '', tail = ''] = m;
    if (head.length + tail.length < 4) return undefined;
    return key.startsWith(head) && key.endsWith(tail);
  };
}

/** A figure in dollars as quota units, checked: `what` names the field in the reason. */
function dollars(v: number, what: string): Parsed<number> {
  const bad = checkQuota(v, what);
  if (bad) return { ok: false, why: bad };
  const quota = quotaFromDisplay(v, USD);
  const big = checkQuota(quota, what);
  return big ? { ok: false, why: big } : { ok: true, value: quota };
}

/** An ISO 8601 date (OpenRouter, LiteLLM) as ms since the epoch; absent, null or unreadable: never. */
function isoExpiry(v: string | null | undefined): number | undefined {
  if (!v) return undefined;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms : undefined;
}

const nullableNum = z.optional(z.nullable(z.number()));
const openRouterKeySchema = z.object({
  data: z.object({
    limit: nullableNum,
    limit_remaining: nullableNum,
    usage: z.number(),
    label: z.optional(z.nullable(z.string())),
    expires_at: z.optional(z.nullable(z.string())),
  }),
});

/** Whether a body has OpenRouter's `/key` fields at all (another product's route does not). */
export function looksOpenRouterKey(body: unknown): boolean {
  const d = isObj(body) ? body.data : undefined;
  return isObj(d) && 'usage' in d && ('limit_remaining' in d || 'limit' in d);
}

/**
 * OpenRouter `GET /api/v1/key`: the key's own limit left, in dollars (credits). A key without a
 * limit draws on the account's credits: `unlimited` here, and {@link parseOpenRouterCredits} says
 * how much the account has. A masked label that is not this key's is another key's figures.
 */
export function parseOpenRouterKey(body: unknown, keyCheck?: KeyCheck): Parsed<BalanceFigures> {
  const err = errorIn(body);
  if (err) return { ok: false, why: err };
  const r = openRouterKeySchema.safeParse(body);
  if (!r.success) return { ok: false, why: `unexpected shape at ${r.error.issues[0]?.path.join('.') ?? 'the body'}` };
  const d = r.data.data;
  if (d.label && keyCheck?.(d.label) === false)
    return { ok: false, why: 'answered the figures of another key (its label does not match this key)' };
  const expiresAt = isoExpiry(d.expires_at);
  const usage = dollars(d.usage, 'usage');
  if (!usage.ok) return usage;
  if (d.limit === null || d.limit === undefined) return { ok: true, value: { unlimited: true, expiresAt, unit: USD } };
  const left = dollars(d.limit_remaining ?? d.limit - d.usage, 'limit_remaining');
  if (!left.ok) return left;
  return { ok: true, value: { quota: left.value, unlimited: false, expiresAt, unit: USD } };
}

const openRouterCreditsSchema = z.object({ data: z.object({ total_credits: z.number(), total_usage: z.number() }) });

/** OpenRouter `GET /api/v1/credits` (the account's credits; a management key's route): bought − used, in dollars. */
export function parseOpenRouterCredits(body: unknown): Parsed<BalanceFigures> {
  const err = errorIn(body);
  if (err) return { ok: false, why: err };
  const r = openRouterCreditsSchema.safeParse(body);
  if (!r.success) return { ok: false, why: `unexpected shape at ${r.error.issues[0]?.path.join('.') ?? 'the body'}` };
  const { total_credits, total_usage } = r.data.data;
  const bought = dollars(total_credits, 'total_credits');
  if (!bought.ok) return bought;
  const used = dollars(total_usage, 'total_usage');
  if (!used.ok) return used;
  const left = dollars(total_credits - total_usage, 'total_credits - total_usage');
  if (!left.ok) return left;
  return { ok: true, value: { quota: left.value, unlimited: false, unit: USD } };
}

const liteLlmKeySchema = z.object({
  key: z.optional(z.nullable(z.string())),
  info: z.object({
    spend: z.number(),
    max_budget: nullableNum,
    key_name: z.optional(z.nullable(z.string())),
    expires: z.optional(z.nullable(z.string())),
  }),
});

/** Whether a body has LiteLLM's `/key/info` fields at all. */
export function looksLiteLlmKey(body: unknown): boolean {
  return isObj(body) && isObj(body.info) && 'spend' in body.info;
}

/**
 * LiteLLM proxy `GET /key/info` (the calling key): `max_budget − spend`, in dollars; no budget is
 * unlimited. The key's `key_name` (`sk-...abcd`) must be this key's.
 */
export function parseLiteLlmKey(body: unknown, keyCheck?: KeyCheck): Parsed<BalanceFigures> {
  const err = errorIn(body);
  if (err) return { ok: false, why: err };
  const r = liteLlmKeySchema.safeParse(body);
  if (!r.success) return { ok: false, why: `unexpected shape at ${r.error.issues[0]?.path.join('.') ?? 'the body'}` };
  const d = r.data.info;
  if (d.key_name && keyCheck?.(d.key_name) === false)
    return { ok: false, why: 'answered the figures of another key (its key_name does not match this key)' };
  const expiresAt = isoExpiry(d.expires);
  const spend = dollars(d.spend, 'spend');
  if (!spend.ok) return spend;
  if (d.max_budget === null || d.max_budget === undefined)
    return { ok: true, value: { unlimited: true, expiresAt, unit: USD } };
  const budget = dollars(d.max_budget, 'max_budget');
  if (!budget.ok) return budget;
  const left = dollars(d.max_budget - d.spend, 'max_budget - spend');
  if (!left.ok) return left;
  return { ok: true, value: { quota: left.value, unlimited: false, expiresAt, unit: USD } };
}
