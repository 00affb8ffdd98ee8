/**
 * An image request's price before it is sent and its cost once answered: the model's price per
 * image (new-api's per-call `model_price`, or the user's `perCall` in `gatewayStudio.spend.prices`)
 * × the number of images. A per-token price (the chat form of Gemini-class models) cannot be known
 * before the answer: that quote is "unknown", said with why, never guessed. Size and quality are
 * named in the line; relays that scale a per-image price by them show it in the charge after.
 */
import * as l10n from '@vscode/l10n';
import { formatQuota, type MoneyUnit } from '../../balance/core/money';
import type { ModelPrice } from '../../pricing/core/pricing';
import type { Cost } from './cost';
import { clipQuote, type ClipQuote } from './videoCharge';

export interface ImageQuoteRequest {
  model: string;
  /** Images asked for (`n`); 1 when left out. */
  images?: number;
  size?: string;
  quality?: string;
}

/** The number of images priced: a whole number of at least 1. */
function count(n: number | undefined): number {
  return n !== undefined && Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1;
}

/** The cost of `n` images at the model's per-image price; no figure without one. */
export function imageCost(n: number, price: ModelPrice | undefined): Cost {
  if (price?.perCall === undefined) return { estimate: true, reason: 'no-price' };
  return { quota: Math.round(price.perCall * count(n)), estimate: false };
}

/** For the confirmations: "about $0.08: 2 images × $0.04, 1024x1024, high, gpt-image-1". */
export function imagePriceLine(quota: number, perImage: number, unit: MoneyUnit, r: ImageQuoteRequest): string {
  const n = count(r.images);
  const parts = [
    l10n.t('{0} image(s) × {1}', n, formatQuota(perImage, unit, { precise: true })),
    ...(r.size ? [r.size] : []),
    ...(r.quality ? [r.quality] : []),
    r.model,
  ].join(', ');
  return l10n.t('about {0}: {1}', formatQuota(quota, unit, { precise: true }), parts);
}

/** The quote for an image request, or why there is none. `confirmAbove` is in the gateway's display unit; 0 never asks. */
export function quoteImages(
  req: ImageQuoteRequest,
  price: ModelPrice | undefined,
  unit: MoneyUnit,
  confirmAbove: number,
): { ok: true; quote: ClipQuote } | { ok: false; why: string } {
  const cost = imageCost(count(req.images), price);
  if (cost.quota === undefined || price?.perCall === undefined)
    return {
      ok: false,
      why:
        price && (price.input !== undefined || price.output !== undefined)
          ? l10n.t('Price unknown: {0} is priced per token, so the cost is known only after the answer.', req.model)
          : l10n.t(
              'Price unknown: the gateway lists no price for {0} and gatewayStudio.spend.prices sets none.',
              req.model,
            ),
    };
  return {
    ok: true,
    quote: clipQuote(cost.quota, imagePriceLine(cost.quota, price.perCall, unit, req), unit, confirmAbove),
  };
}
