import type * as vscode from 'vscode';
import type { MediaKind } from '../contracts/featureTools';
import type { Services } from './services';

/**
 * The bridge between the media jobs (a video task today, an image next) and the account feature,
 * which may not import each other. A media feature asks for a quote before it submits and hears
 * what a finished job was charged; the account feature answers both. Without the account feature
 * (turned off, not loaded yet, or failed to load) every quote is "unknown", said plainly, and no
 * charge ever arrives. Only figures and names travel here: never a key or a prompt.
 */

/** What a job will be billed for (as its feature knows it before the submit). */
export interface MediaQuoteRequest {
  /** The kind of job priced (clips by model, seconds and resolution; images by model and count). */
  kind: MediaKind;
  model: string;
  seconds?: number;
  resolution?: string;
  /** Images asked for (`n`), for kind `image`. */
  images?: number;
  size?: string;
  quality?: string;
}

export type MediaQuote =
  | {
      known: true;
      /** Quota units (the gateway's integer unit). */
      quota: number;
      /** The figure in the gateway's unit: `¥0.80`. */
      amount: string;
      /** "about ¥0.80: 4 s, 720p, vendor-image-video". */
      line: string;
      /** Set when the figure is above `gatewayStudio.spend.confirmAbove`: that limit as text (`¥0.50`). */
      above?: string;
      /** Quota units in one of the gateway's display units, so a limit in that unit can be compared. */
      perUnit?: number;
      /** Quota units in a US dollar (the relay's quota per unit), so spends through different gateways add up as money. */
      perUsd?: number;
    }
  | {
      known: false;
      /** Why there is no figure, as a sentence for the user. */
      line: string;
      /** `gatewayStudio.spend.confirmAbove` as text in the gateway's unit (`¥0.50`), when it is set and the unit known. */
      limit?: string;
    };

/** What the account feature learned about a finished job's charge. */
export interface MediaCharge {
  kind: MediaKind;
  /** The gateway's id of the job (a video task's id; an image request's id made by the images feature). */
  jobId: string;
  /** The estimate at the task's end (same prices as the quote), as text; absent without a price. */
  estimate?: string;
  /** What the gateway charged, as text (`¥0.80`), net of a refund it logged. */
  charged: string;
  chargedQuota: number;
  /** Where the charge was read: the gateway's `/api/log/token` row, or the change of the balance. */
  source: 'log' | 'balance';
  /** The task failed (or was cancelled or expired) and was still charged (new-api#2050). */
  failedCharged: boolean;
}

export interface MediaSpendProvider {
  /** Must not make a network request: prices come from what the account feature cached. */
  quote(req: MediaQuoteRequest): Promise<MediaQuote>;
}

/** The bridge's state: one per activation, made by `extension.ts` and handed over in `Services.mediaSpend`. */
export interface MediaSpendBridge {
  provider?: MediaSpendProvider;
  readonly chargeListeners: Set<(c: MediaCharge) => void>;
}

/** The account feature offers quotes (until the returned disposable is disposed). */
export function provideMediaSpend(s: Services, p: MediaSpendProvider): vscode.Disposable {
  const b = s.mediaSpend;
  b.provider = p;
  return {
    dispose: () => {
      if (b.provider === p) b.provider = undefined;
    },
  };
}

/** What a job would cost; "unknown" (with why) when no quote can be given. Never rejects. */
export async function quoteMedia(s: Services, req: MediaQuoteRequest, unknownLine: string): Promise<MediaQuote> {
  const p = s.mediaSpend.provider;
  if (!p) return { known: false, line: unknownLine };
  try {
    return await p.quote(req);
  } catch (e) {
    s.log.warn(`Price of a ${req.kind} job: ${e instanceof Error ? e.message : String(e)}`);
    return { known: false, line: unknownLine };
  }
}

export function reportMediaCharge(s: Services, c: MediaCharge): void {
  for (const fn of s.mediaSpend.chargeListeners) {
    try {
      fn(c);
    } catch (err) {
      s.log.warn(`A ${c.kind} charge listener failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

export function onMediaCharge(s: Services, fn: (c: MediaCharge) => void): vscode.Disposable {
  const set = s.mediaSpend.chargeListeners;
  set.add(fn);
  return { dispose: () => set.delete(fn) };
}
