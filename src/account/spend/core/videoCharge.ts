/**
 * A clip's price before it is submitted, and what the gateway charged for it once it ended.
 * The price is the per-second price × seconds of {@link videoCost}, compared with the user's
 * `confirmAbove`. The charge is read from the gateway's `/api/log/token` (new-api: one row per
 * request, `quota` in quota units) where a row names the task, net of a refund row for it;
 * without such a row the caller falls back to the change of the balance.
 */
import * as l10n from '@vscode/l10n';
import { MAX_QUOTA, formatQuota, quotaFromDisplay, type MoneyUnit } from '../../balance/core/money';
import { errorIn } from '../../balance/core/sources';
import type { ModelPrice } from '../../pricing/core/pricing';
import { videoCost, videoPriceLine } from './cost';

export interface ClipQuote {
  quota: number;
  amount: string;
  line: string;
  /** The limit as text when the quote is above it. */
  above?: string;
}

/**
 * The quote for a clip, or why there is none (a sentence for the user). `confirmAbove` is in the
 * gateway's display unit; 0 asks never. A clip without seconds is quoted at `defaultSeconds`.
 */
export function quoteClip(
  req: { model: string; seconds?: number; resolution?: string },
  price: ModelPrice | undefined,
  unit: MoneyUnit,
  confirmAbove: number,
): { ok: true; quote: ClipQuote } | { ok: false; why: string } {
  const seconds = req.seconds ?? 0;
  if (!(seconds > 0))
    return {
      ok: false,
      why: l10n.t('Price unknown: the duration is left to the model, so the cost cannot be worked out.'),
    };
  const cost = videoCost(seconds, price);
  const line = videoPriceLine(cost, unit, { seconds, resolution: req.resolution, model: req.model });
  if (cost.quota === undefined || line === undefined)
    return {
      ok: false,
      why: l10n.t(
        'Price unknown: the gateway lists no price for {0} and gatewayStudio.spend.prices sets none.',
        req.model,
      ),
    };
  return { ok: true, quote: clipQuote(cost.quota, line, unit, confirmAbove) };
}

/** A priced request's quote: its amount, its line, and the limit it is above (`confirmAbove`, display unit; 0 never asks). */
export function clipQuote(quota: number, line: string, unit: MoneyUnit, confirmAbove: number): ClipQuote {
  const limit = confirmAbove > 0 ? quotaFromDisplay(confirmAbove, unit) : undefined;
  return {
    quota,
    amount: formatQuota(quota, unit, { precise: true }),
    line,
    ...(limit !== undefined && quota > limit ? { above: formatQuota(limit, unit, { precise: true }) } : {}),
  };
}

/** new-api's log types: 2 consume, 6 refund (a failed task's quota given back). */
const CONSUME = 2;
const REFUND = 6;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The task id a row names: `other.task_id` (an object or new-api's JSON string), else none. */
function taskIdOf(row: Record<string, unknown>): string | undefined {
  let other = row.other;
  if (typeof other === 'string' && other.length < 100_000) {
    try {
      other = JSON.parse(other) as unknown;
    } catch {
      other = undefined;
    }
  }
  const id = isObj(other) ? other.task_id : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export type LogCharge =
  { kind: 'charge'; quota: number; rows: number } | { kind: 'no-row' } | { kind: 'unusable'; why: string };

/**
 * The net charge for `videoId` in a `/api/log/token` answer (`data` as a list or as new-api's
 * page, `data.items`): its consume rows minus its refund rows. A row matches when its
 * `other.task_id` is the id, or its `content` names it. Rows with a quota that is not a sane
 * number are skipped (a hostile log moves nothing).
 */
export function chargeFromLog(body: unknown, videoId: string): LogCharge {
  const err = errorIn(body);
  if (err) return { kind: 'unusable', why: err };
  const data = isObj(body) ? body.data : undefined;
  const rows = Array.isArray(data) ? data : isObj(data) && Array.isArray(data.items) ? data.items : undefined;
  if (!rows) return { kind: 'unusable', why: 'no list of rows in data' };
  let net = 0;
  let matched = 0;
  for (const raw of rows.slice(0, 5000)) {
    if (!isObj(raw)) continue;
    const named =
      taskIdOf(raw) === videoId ||
      (typeof raw.content === 'string' && videoId.length >= 8 && raw.content.includes(videoId));
    if (!named) continue;
    const q = raw.quota;
    if (typeof q !== 'number' || !Number.isFinite(q) || q < 0 || q > MAX_QUOTA) continue;
    if (raw.type === REFUND) net -= Math.round(q);
    else if (raw.type === CONSUME || raw.type === undefined) net += Math.round(q);
    else continue;
    matched += 1;
  }
  if (matched === 0) return { kind: 'no-row' };
  return { kind: 'charge', quota: Math.max(0, net), rows: matched };
}

/** How a task ended, as the video feature reports it. */
export type ClipEnd = 'saved' | 'failed' | 'error' | 'timed_out' | 'paused' | string;

/**
 * Whether a task that did not produce a video was charged: the gateway reported a failure (or a
 * cancellation or an expiry) and the charge is above zero (new-api#2050).
 */
export function failedButCharged(end: ClipEnd, chargedQuota: number): boolean {
  return end === 'failed' && chargedQuota > 0;
}
