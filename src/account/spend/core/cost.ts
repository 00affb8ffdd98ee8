/**
 * What an answer or a clip costs: usage × price, rounded once to whole quota units. A figure is
 * an estimate when the price or the usage is missing (then there is no figure at all, only the
 * mark), so nothing shown as a cost was guessed.
 */
import * as l10n from '@vscode/l10n';
import { formatQuota, type MoneyUnit } from '../../balance/core/money';
import type { ModelPrice } from '../../pricing/core/pricing';

/** The usage fields a chat answer reports (spec 2.2, plus the cached prompt tokens relays add). */
export interface UsageCounts {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

export interface Cost {
  /** Quota units; undefined when it cannot be known (no price, no usage). */
  quota?: number;
  estimate: boolean;
  reason?: 'no-price' | 'no-usage';
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/** The cost of one answer: prompt (cached ones at their price) and completion tokens × the model's price. */
export function answerCost(usage: UsageCounts | undefined, price: ModelPrice | undefined): Cost {
  if (!price) return { estimate: true, reason: 'no-price' };
  if (price.perCall !== undefined && price.input === undefined)
    return { quota: Math.round(price.perCall), estimate: false };
  if (!usage || (usage.prompt_tokens === undefined && usage.completion_tokens === undefined))
    return { estimate: true, reason: 'no-usage' };
  if (price.input === undefined && price.output === undefined) return { estimate: true, reason: 'no-price' };
  const prompt = count(usage.prompt_tokens);
  const cached = Math.min(prompt, count(usage.prompt_tokens_details?.cached_tokens));
  const input = price.input ?? 0;
  const quota =
    (prompt - cached) * input +
    cached * (price.cachedInput ?? input) +
    count(usage.completion_tokens) * (price.output ?? input);
  return { quota: Math.round(quota), estimate: false };
}

/**
 * The cost of a clip of `seconds`: the per-second price, or a video model's per-call price per
 * second (new-api bills a video task's `model_price` × its seconds).
 */
export function videoCost(seconds: number, price: ModelPrice | undefined): Cost {
  const perSecond = price?.perSecond ?? price?.perCall;
  if (perSecond === undefined) return { estimate: true, reason: 'no-price' };
  return { quota: Math.round(perSecond * Math.max(0, seconds)), estimate: false };
}

/** A cost as text: `$0.0012`, `~$0.0012`, or `?` (no figure). */
export function costText(c: Cost, unit: MoneyUnit): string {
  if (c.quota === undefined) return '?';
  return `${c.estimate ? '~' : ''}${formatQuota(c.quota, unit, { precise: true })}`;
}

/** For the confirmations: "about ¥0.80: 4 s, 720p, vendor-image-video". Undefined without a price. */
export function videoPriceLine(
  c: Cost,
  unit: MoneyUnit,
  v: { seconds: number; resolution?: string; model: string },
): string | undefined {
  if (c.quota === undefined) return undefined;
  const parts = [l10n.t('{0} s', v.seconds), ...(v.resolution ? [v.resolution] : []), v.model].join(', ');
  return l10n.t('about {0}: {1}', formatQuota(c.quota, unit, { precise: true }), parts);
}
