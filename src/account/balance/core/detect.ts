/**
 * Where a gateway's balance comes from, found in the order of issue 21: new-api's own endpoints,
 * then the OpenAI-style `/dashboard/billing` pair (with `/v1`, else without: one-api), then
 * OpenRouter's `/key` (and `/credits`), then LiteLLM's `/key/info` (issue 39), then a source the
 * user configured, then none.
 * What was found is remembered by the caller and tried first next time; only an endpoint that
 * has gone (404, a web page) sends detection round again.
 */
import { USD, type MoneyUnit } from './money';
import {
  looksLiteLlmKey,
  looksOpenRouterKey,
  parseCustom,
  parseDashboard,
  parseLiteLlmKey,
  parseOpenRouterCredits,
  parseOpenRouterKey,
  parseStatus,
  parseTokenUsage,
  type BalanceFigures,
  type KeyCheck,
  type Parsed,
  type StatusInfo,
} from './sources';
import type { AccountTransport, Fetched } from '../../../api/account/transport';

export type SourceKind = 'new-api' | 'dashboard' | 'openrouter' | 'litellm' | 'custom';

/** A balance source the user set: a URL and the JSON paths of the figure and its currency. */
export interface CustomSource {
  url: string;
  balancePath: string;
  currencyPath?: string;
}

export interface BalanceReading extends BalanceFigures {
  source: SourceKind;
  topUpLink?: string;
}

export type ReadOutcome = (
  | { kind: 'reading'; reading: BalanceReading }
  /** This gateway reports no balance anywhere we know to look. */
  | { kind: 'none' }
  /** A source answered, or should have, but not with a figure we trust; `why` is for the log. */
  | { kind: 'unavailable'; source?: SourceKind; why: string }
) & {
  /**
   * The gateway's money unit as its `/api/status` states it, whatever became of the balance: the
   * unit prices and costs are in. Absent when the gateway has no usable `/api/status`.
   */
  unit?: MoneyUnit;
};

export interface ReadOptions {
  /** The source found last time, tried first. */
  remembered?: SourceKind;
  custom?: CustomSource;
  /** Tells this key from another in a masked label (OpenRouter, LiteLLM): another key's figures are refused. */
  keyCheck?: KeyCheck;
  signal?: AbortSignal;
}

/** The dashboard pair: the `/v1` form first, then the one served at the root (one-api, older new-api). */
const DASHBOARDS = [
  { subscription: '/v1/dashboard/billing/subscription', usage: '/v1/dashboard/billing/usage' },
  { subscription: '/dashboard/billing/subscription', usage: '/dashboard/billing/usage' },
];
/** OpenRouter's routes, beside its `/api/v1` base (the root here is the base without `/v1`). */
const OPENROUTER = { key: '/v1/key', credits: '/v1/credits' };
const LITELLM_KEY_INFO = '/key/info';

type Step = ReadOutcome | 'absent';

function fromParsed(source: SourceKind, p: Parsed<BalanceFigures>, topUpLink?: string): ReadOutcome {
  if (!p.ok) return { kind: 'unavailable', source, why: p.why };
  return { kind: 'reading', reading: { ...p.value, source, ...(topUpLink ? { topUpLink } : {}) } };
}

/** A fetch that failed outright; `absent` for an endpoint that is not there. */
function failure(source: SourceKind | undefined, path: string, f: Fetched): Step | undefined {
  if (f.kind === 'missing') return 'absent';
  if (f.kind === 'failed') return { kind: 'unavailable', source, why: `GET ${path} ${f.why}` };
  return undefined;
}

async function status(
  t: AccountTransport,
  signal?: AbortSignal,
  seen?: { unit?: MoneyUnit },
): Promise<StatusInfo | 'absent' | ReadOutcome> {
  const f = await t.get('/api/status', signal);
  const stop = failure(undefined, '/api/status', f);
  if (stop) return stop;
  const body = (f as { body: unknown }).body;
  const p = parseStatus(body);
  if (p.ok) {
    if (seen) seen.unit = p.value.unit;
    return p.value;
  }
  // new-api's fields with values we cannot trust: unavailable. Another product's /api/status
  // (none of those fields) only means: not new-api.
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  const looksNewApi =
    typeof data === 'object' && data !== null && ('quota_per_unit' in data || 'quota_display_type' in data);
  return looksNewApi ? { kind: 'unavailable', source: 'new-api', why: `GET /api/status: ${p.why}` } : 'absent';
}

async function newApi(t: AccountTransport, info: StatusInfo, signal?: AbortSignal): Promise<Step> {
  const f = await t.get('/api/usage/token', signal);
  const stop = failure('new-api', '/api/usage/token', f);
  if (stop) return stop;
  return fromParsed('new-api', parseTokenUsage((f as { body: unknown }).body, info.unit), info.topUpLink);
}

async function dashboard(
  t: AccountTransport,
  unit: MoneyUnit,
  topUpLink?: string,
  signal?: AbortSignal,
): Promise<Step> {
  for (const paths of DASHBOARDS) {
    const d = await dashboardAt(t, paths, unit, topUpLink, signal);
    if (d !== 'absent') return d;
  }
  return 'absent';
}

async function dashboardAt(
  t: AccountTransport,
  paths: (typeof DASHBOARDS)[number],
  unit: MoneyUnit,
  topUpLink?: string,
  signal?: AbortSignal,
): Promise<Step> {
  const sub = await t.get(paths.subscription, signal);
  const stopSub = failure('dashboard', paths.subscription, sub);
  if (stopSub) return stopSub;
  const use = await t.get(paths.usage, signal);
  const stopUse = failure('dashboard', paths.usage, use);
  // The subscription alone is not a balance: a missing usage route is a failure here.
  if (stopUse === 'absent') return { kind: 'unavailable', source: 'dashboard', why: `GET ${paths.usage} is missing` };
  if (stopUse) return stopUse;
  const p = parseDashboard((sub as { body: unknown }).body, (use as { body: unknown }).body, unit);
  return fromParsed('dashboard', p, topUpLink);
}

/**
 * OpenRouter: the key's own limit; a key without one draws on the account's credits, read from
 * `/credits` when this key may (a management key), else the key is shown as unlimited.
 */
async function openRouter(t: AccountTransport, o: ReadOptions): Promise<Step> {
  const f = await t.get(OPENROUTER.key, o.signal);
  const stop = failure('openrouter', OPENROUTER.key, f);
  if (stop) return stop;
  const body = (f as { body: unknown }).body;
  if (!looksOpenRouterKey(body)) return 'absent';
  const k = parseOpenRouterKey(body, o.keyCheck);
  if (!k.ok || !k.value.unlimited) return fromParsed('openrouter', k);
  const c = await t.get(OPENROUTER.credits, o.signal);
  if (c.kind !== 'json') return fromParsed('openrouter', k);
  const credits = parseOpenRouterCredits(c.body);
  return fromParsed(
    'openrouter',
    credits.ok ? { ok: true, value: { ...credits.value, expiresAt: k.value.expiresAt } } : credits,
  );
}

async function liteLlm(t: AccountTransport, o: ReadOptions): Promise<Step> {
  const f = await t.get(LITELLM_KEY_INFO, o.signal);
  const stop = failure('litellm', LITELLM_KEY_INFO, f);
  if (stop) return stop;
  const body = (f as { body: unknown }).body;
  if (!looksLiteLlmKey(body)) return 'absent';
  return fromParsed('litellm', parseLiteLlmKey(body, o.keyCheck));
}

async function custom(t: AccountTransport, c: CustomSource, signal?: AbortSignal): Promise<Step> {
  const f = await t.get(c.url, signal);
  if (f.kind !== 'json') return { kind: 'unavailable', source: 'custom', why: `GET ${c.url} ${f.why}` };
  return fromParsed('custom', parseCustom(f.body, c.balancePath, c.currencyPath));
}

/**
 * Reads the balance, detecting the source when none is remembered (or the remembered one has
 * gone). A failure that is not "no such endpoint" (a timeout, a 401, a hostile figure) stops
 * detection with `unavailable`, so a slow gateway is never mistaken for one without a balance.
 */
export async function readBalance(t: AccountTransport, o: ReadOptions = {}): Promise<ReadOutcome> {
  const seen: { unit?: MoneyUnit } = {};
  const out = await detect(t, o, seen);
  // A custom source says nothing of the gateway's unit: its /api/status still does, when it has one.
  if (!seen.unit && out.kind === 'reading' && out.reading.source === 'custom') await status(t, o.signal, seen);
  return seen.unit ? { ...out, unit: seen.unit } : out;
}

async function detect(t: AccountTransport, o: ReadOptions, seen: { unit?: MoneyUnit }): Promise<ReadOutcome> {
  const { signal } = o;
  if (o.remembered) {
    const again = await readFrom(t, o.remembered, o, seen);
    if (again !== 'absent') return again;
  }
  const info = await status(t, signal, seen);
  if (typeof info === 'object' && 'kind' in info) return info;
  if (info !== 'absent') {
    const n = await newApi(t, info, signal);
    if (n !== 'absent') return n;
  }
  const unit = info !== 'absent' ? info.unit : USD;
  const d = await dashboard(t, unit, info !== 'absent' ? info.topUpLink : undefined, signal);
  if (d !== 'absent') return d;
  const or = await openRouter(t, o);
  if (or !== 'absent') return or;
  const ll = await liteLlm(t, o);
  if (ll !== 'absent') return ll;
  if (o.custom) {
    const c = await custom(t, o.custom, signal);
    if (c !== 'absent') return c;
  }
  return { kind: 'none' };
}

async function readFrom(
  t: AccountTransport,
  source: SourceKind,
  o: ReadOptions,
  seen: { unit?: MoneyUnit },
): Promise<Step> {
  switch (source) {
    case 'new-api': {
      const info = await status(t, o.signal, seen);
      if (info === 'absent') return 'absent';
      if ('kind' in info) return info;
      return newApi(t, info, o.signal);
    }
    case 'dashboard': {
      const info = await status(t, o.signal, seen);
      if (typeof info === 'object' && 'kind' in info) return info;
      return dashboard(
        t,
        info === 'absent' ? USD : info.unit,
        info === 'absent' ? undefined : info.topUpLink,
        o.signal,
      );
    }
    case 'openrouter':
      return openRouter(t, o);
    case 'litellm':
      return liteLlm(t, o);
    case 'custom':
      return o.custom ? custom(t, o.custom, o.signal) : 'absent';
  }
}
