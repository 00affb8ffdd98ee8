/**
 * What a model costs, in quota units, and where that figure came from: the gateway's
 * `/api/pricing` (new-api: `model_ratio` × the key's group ratio per token, completion tokens ×
 * `completion_ratio`; `quota_type` 1: `model_price` dollars per call), or the user's settings
 * (per million tokens, per call, per second of video, in the gateway's unit). A price the user
 * set wins over the gateway's.
 */
import * as z from '../../../shared/zod';
import type { MoneyUnit } from '../../balance/core/money';
import { errorIn } from '../../balance/core/sources';

export type PriceSource = 'gateway' | 'settings';

/** Quota units per token, per call or per second; any of them may be absent. */
export interface ModelPrice {
  model: string;
  source: PriceSource;
  input?: number;
  output?: number;
  /** Cached prompt tokens; the input price when absent. */
  cachedInput?: number;
  perCall?: number;
  perSecond?: number;
}

/** One model's prices as the user writes them in `gatewayStudio.spend.prices`, in the gateway's unit. */
export interface PriceSetting {
  inputPerMillion?: number;
  outputPerMillion?: number;
  cachedInputPerMillion?: number;
  perCall?: number;
  perSecond?: number;
}

const MICRO = 1_000_000;
/** No per-token ratio or price beyond this is believed (a hostile `/api/pricing`). */
const MAX_RATIO = 1e6;

const sane = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v) && v >= 0 && v <= MAX_RATIO;

const entry = z.object({
  model_name: z.string(),
  quota_type: z.optional(z.number()),
  model_ratio: z.optional(z.number()),
  completion_ratio: z.optional(z.number()),
  cache_ratio: z.optional(z.number()),
  model_price: z.optional(z.number()),
});
const pricingSchema = z.object({
  data: z.array(z.unknown()),
  group_ratio: z.optional(z.record(z.string(), z.unknown())),
});

export interface GatewayPricing {
  prices: ModelPrice[];
  groupRatio: number;
  /** Entries that were dropped, with why (for the log). */
  dropped: string[];
}

/**
 * `GET /api/pricing` for the key's `group` (new-api's `default` unless the user names another).
 * Entries with values that are not sane numbers are dropped, not guessed.
 */
export function parsePricing(
  body: unknown,
  o: { group: string; unit: MoneyUnit },
): { ok: true; value: GatewayPricing } | { ok: false; why: string } {
  const err = errorIn(body);
  if (err) return { ok: false, why: err };
  const r = pricingSchema.safeParse(body);
  if (!r.success) return { ok: false, why: `unexpected shape at ${r.error.issues[0]?.path.join('.') ?? 'the body'}` };
  const rawRatio = r.data.group_ratio?.[o.group];
  const groupRatio = typeof rawRatio === 'number' && sane(rawRatio) ? rawRatio : 1;
  const prices: ModelPrice[] = [];
  const dropped: string[] = [];
  for (const raw of r.data.data.slice(0, 5000)) {
    const e = entry.safeParse(raw);
    if (!e.success) {
      dropped.push(`an entry of unexpected shape (${e.error.issues[0]?.path.join('.') ?? ''})`);
      continue;
    }
    const d = e.data;
    const model = d.model_name.slice(0, 200);
    if (d.quota_type === 1) {
      if (!sane(d.model_price)) {
        dropped.push(`${model}: model_price ${String(d.model_price)}`);
        continue;
      }
      const perCall = d.model_price * groupRatio * o.unit.quotaPerUnit;
      prices.push({ model, source: 'gateway', perCall });
      continue;
    }
    if (!sane(d.model_ratio) || (d.completion_ratio !== undefined && !sane(d.completion_ratio))) {
      dropped.push(`${model}: model_ratio ${String(d.model_ratio)}, completion_ratio ${String(d.completion_ratio)}`);
      continue;
    }
    // new-api: a ratio of 1 is $2 per million tokens at 500000 quota per dollar, i.e. 1 quota unit per token.
    const input = d.model_ratio * groupRatio;
    prices.push({
      model,
      source: 'gateway',
      input,
      output: input * (d.completion_ratio ?? 1),
      ...(sane(d.cache_ratio) ? { cachedInput: input * d.cache_ratio } : {}),
    });
  }
  return { ok: true, value: { prices, groupRatio, dropped } };
}

/** A figure in the gateway's display unit as quota units. */
function toQuota(v: number, unit: MoneyUnit): number {
  if (unit.kind === 'TOKENS') return v;
  return (v * unit.quotaPerUnit * MICRO) / unit.rateMicro;
}

/** The user's prices (`gatewayStudio.spend.prices`), in the gateway's unit, as quota per token/call/second. */
export function pricesFromSettings(settings: Record<string, PriceSetting>, unit: MoneyUnit): ModelPrice[] {
  const out: ModelPrice[] = [];
  for (const [model, s] of Object.entries(settings)) {
    if (typeof s !== 'object' || s === null) continue;
    const p: ModelPrice = { model, source: 'settings' };
    if (sane(s.inputPerMillion)) p.input = toQuota(s.inputPerMillion, unit) / 1e6;
    if (sane(s.outputPerMillion)) p.output = toQuota(s.outputPerMillion, unit) / 1e6;
    if (sane(s.cachedInputPerMillion)) p.cachedInput = toQuota(s.cachedInputPerMillion, unit) / 1e6;
    if (sane(s.perCall)) p.perCall = toQuota(s.perCall, unit);
    if (sane(s.perSecond)) p.perSecond = toQuota(s.perSecond, unit);
    if (Object.keys(p).length > 2) out.push(p);
  }
  return out;
}

/** The prices in force: the gateway's, each replaced by the user's for the same model. */
export class PriceBook {
  private readonly byModel = new Map<string, ModelPrice>();

  constructor(gateway: readonly ModelPrice[] = [], settings: readonly ModelPrice[] = []) {
    for (const p of gateway) this.byModel.set(p.model, p);
    for (const p of settings) this.byModel.set(p.model, p);
  }

  lookup(model: string | undefined): ModelPrice | undefined {
    return model === undefined ? undefined : this.byModel.get(model);
  }

  all(): ModelPrice[] {
    return [...this.byModel.values()];
  }

  get size(): number {
    return this.byModel.size;
  }
}
