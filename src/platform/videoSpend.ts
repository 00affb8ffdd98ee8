import type * as vscode from 'vscode';
import type { Services } from './services';

/**
 * The bridge between video and the account feature, which may not import each other. Video asks
 * for a quote before it submits and hears what a finished task was charged; the account feature
 * answers both. Without the account feature (turned off, not loaded yet, or failed to load) every
 * quote is "unknown", said plainly, and no charge ever arrives. Only figures and names travel
 * here: never a key or a prompt.
 */

/** What a clip will be billed for (as video knows it before the submit). */
export interface VideoQuoteRequest {
  model: string;
  seconds?: number;
  resolution?: string;
}

export type VideoQuote =
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
    }
  | {
      known: false;
      /** Why there is no figure, as a sentence for the user. */
      line: string;
      /** `gatewayStudio.spend.confirmAbove` as text in the gateway's unit (`¥0.50`), when it is set and the unit known. */
      limit?: string;
    };

/** What the account feature learned about a finished task's charge. */
export interface VideoCharge {
  /** The gateway's id of the task. */
  videoId: string;
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

export interface VideoSpendProvider {
  /** Must not make a network request: prices come from what the account feature cached. */
  quote(req: VideoQuoteRequest): Promise<VideoQuote>;
}

/** The bridge's state: one per activation, made by `extension.ts` and handed over in `Services.videoSpend`. */
export interface VideoSpendBridge {
  provider?: VideoSpendProvider;
  readonly chargeListeners: Set<(c: VideoCharge) => void>;
}

/** The account feature offers quotes (until the returned disposable is disposed). */
export function provideVideoSpend(s: Services, p: VideoSpendProvider): vscode.Disposable {
  const b = s.videoSpend;
  b.provider = p;
  return {
    dispose: () => {
      if (b.provider === p) b.provider = undefined;
    },
  };
}

/** What a clip would cost; "unknown" (with why) when no quote can be given. Never rejects. */
export async function quoteVideo(s: Services, req: VideoQuoteRequest, unknownLine: string): Promise<VideoQuote> {
  const p = s.videoSpend.provider;
  if (!p) return { known: false, line: unknownLine };
  try {
    return await p.quote(req);
  } catch (e) {
    s.log.warn(`Video price: ${e instanceof Error ? e.message : String(e)}`);
    return { known: false, line: unknownLine };
  }
}

export function reportVideoCharge(s: Services, c: VideoCharge): void {
  for (const fn of s.videoSpend.chargeListeners) {
    try {
      fn(c);
    } catch (err) {
      s.log.warn(`A video charge listener failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

export function onVideoCharge(s: Services, fn: (c: VideoCharge) => void): vscode.Disposable {
  const set = s.videoSpend.chargeListeners;
  set.add(fn);
  return { dispose: () => set.delete(fn) };
}
