import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import type { UsageEvent } from '../../platform/usageEvents';
import { provideMediaSpend, reportMediaCharge, type MediaQuote } from '../../platform/mediaSpend';
import type { AccountSnapshot } from '../balance/core/accountState';
import { formatQuota, quotaFromDisplay, type MoneyUnit } from '../balance/core/money';
import { PriceBook, pricesFromSettings } from '../pricing/core/pricing';
import type { Cost } from '../spend/core/cost';
import type { UsageLedger } from '../spend/core/ledger';
import { chargeFromLog, failedButCharged, quoteClip } from '../spend/core/videoCharge';
import { quoteImages } from '../spend/core/imageCharge';
import type { MediaQuoteRequest } from '../../platform/mediaSpend';
import { readSpendSettings, type AccountEntry, type Accounts } from './accounts';

type ClipEvent = Extract<UsageEvent, { kind: 'clip' }>;

/**
 * The account's side of video: quotes before a submit (from the prices already cached, never a
 * request), and, when a task ends, the charge the gateway logged for it (its `/api/log/token`
 * row) or, failing that, the change of the balance; both go to the ledger and back to video,
 * and a failed task that was charged is said in the log.
 */
export class VideoSpend implements vscode.Disposable {
  private readonly provided: vscode.Disposable;
  private readonly estimates = new Map<string, string>();

  constructor(
    private readonly s: Services,
    private readonly accounts: Accounts,
    private readonly ledger: UsageLedger,
  ) {
    this.provided = provideMediaSpend(s, { quote: (r) => this.quote(r) });
  }

  private async quote(req: MediaQuoteRequest): Promise<MediaQuote> {
    const settings = readSpendSettings();
    if (!settings.enabled)
      return {
        known: false,
        line: vscode.l10n.t('Price unknown: the spend feature is turned off (gatewayStudio.spend.enabled).'),
      };
    // The account that will bill the clip, from what is known now (no request here).
    const e = await this.accounts.forClips(await this.accounts.current(), { read: false });
    if (!e) return { known: false, line: vscode.l10n.t('Price unknown: no gateway is set up.') };
    const snap = e.state.snapshot();
    if (snap.status === 'unknown')
      return { known: false, line: vscode.l10n.t("Price unknown: the gateway's account has not been read yet.") };
    const book = new PriceBook(e.prices?.book.all() ?? [], pricesFromSettings(settings.prices, snap.unit));
    const q =
      req.kind === 'image'
        ? quoteImages(req, book.lookup(req.model), snap.unit, settings.confirmAbove)
        : quoteClip(req, book.lookup(req.model), snap.unit, settings.confirmAbove);
    if (q.ok)
      return { known: true, ...q.quote, perUnit: quotaFromDisplay(1, snap.unit), perUsd: snap.unit.quotaPerUnit };
    // The limit in the gateway's unit, so video's question about an unknown price can name it.
    const limit =
      settings.confirmAbove > 0
        ? formatQuota(quotaFromDisplay(settings.confirmAbove, snap.unit), snap.unit, { precise: true })
        : undefined;
    return { known: false, line: q.why, ...(limit ? { limit } : {}) };
  }

  /**
   * After a reading: the gateway's prices are read in the background when missing or stale (at
   * most every ten minutes), so a quote finds them cached.
   */
  onReading(e: AccountEntry, snap: AccountSnapshot): void {
    if (snap.status === 'unknown') return;
    const settings = readSpendSettings();
    if (!settings.enabled) return;
    void this.accounts.prices(e, settings).catch(() => undefined);
  }

  /**
   * A clip ended: its charge from the gateway's log when a row names the task (true), else false
   * and the caller counts it among the uses a balance change is attributed to.
   */
  async clipEnded(e: AccountEntry, ev: ClipEvent, cost: Cost, unit: MoneyUnit): Promise<boolean> {
    if (!ev.videoId) return false;
    if (cost.quota !== undefined) this.estimates.set(ev.videoId, formatQuota(cost.quota, unit, { precise: true }));
    if (this.estimates.size > 200) this.estimates.delete(this.estimates.keys().next().value!);
    // A gateway that reports no balance has no log either: it is not asked at every clip.
    if (e.state.snapshot().status === 'none') return false;
    const f = await e.transport.get('/api/log/token');
    if (f.kind !== 'json') {
      this.sayOnce(
        e.gateway,
        `Account: ${e.gateway}: no charges from /api/log/token (${f.why}); the balance change counts instead`,
      );
      return false;
    }
    const c = chargeFromLog(f.body, ev.videoId);
    if (c.kind !== 'charge') {
      this.s.log.info(
        `Account: /api/log/token ${c.kind === 'no-row' ? 'has no row for' : `unusable (${c.why}) for`} ${ev.videoId}; the balance change counts instead`,
      );
      return false;
    }
    await this.ledger.recordCharge({ gateway: e.gateway, model: ev.model, quota: c.quota, unit });
    this.report({ gateway: e.gateway, model: ev.model }, ev.videoId, ev.end, c.quota, unit, 'log');
    return true;
  }

  /** What a clip's pending use carries, so a balance change attributed to it reaches video. */
  pendingOf(ev: ClipEvent): { clip?: { videoId: string; end: string } } {
    return ev.videoId ? { clip: { videoId: ev.videoId, end: ev.end } } : {};
  }

  /** A balance change attributed to one clip (the only use since the last reading). */
  balanceCharged(
    where: { gateway: string; model: string },
    clip: { videoId: string; end: string },
    quota: number,
    unit: MoneyUnit,
  ): void {
    // No change says nothing: a relay that bills at submission may have been read after it.
    if (quota > 0) this.report(where, clip.videoId, clip.end, quota, unit, 'balance');
  }

  /** An image answer was counted: its estimate is kept for the charge that follows. */
  imageCounted(jobId: string, cost: Cost, unit: MoneyUnit): void {
    if (cost.quota !== undefined) this.estimates.set(jobId, formatQuota(cost.quota, unit, { precise: true }));
    if (this.estimates.size > 200) this.estimates.delete(this.estimates.keys().next().value!);
  }

  /** A balance change attributed to one image request (the only use since the last reading). */
  imageCharged(jobId: string, quota: number, unit: MoneyUnit): void {
    if (quota <= 0) return;
    const charged = formatQuota(quota, unit, { precise: true });
    const estimate = this.estimates.get(jobId);
    this.s.log.info(
      `Account: image request ${jobId} charged ${charged} (from the balance change; estimate ${estimate ?? '?'})`,
    );
    reportMediaCharge(this.s, {
      kind: 'image',
      jobId,
      ...(estimate ? { estimate } : {}),
      charged,
      chargedQuota: quota,
      source: 'balance',
      failedCharged: false,
    });
  }

  private readonly said = new Set<string>();

  /** A line said once per gateway and text (the log stays quiet after it). */
  private sayOnce(gateway: string, line: string): void {
    const k = `${gateway}\n${line}`;
    if (this.said.has(k)) return;
    this.said.add(k);
    this.s.log.info(line);
  }

  private report(
    where: { gateway: string; model: string },
    videoId: string,
    end: string,
    quota: number,
    unit: MoneyUnit,
    source: 'log' | 'balance',
  ): void {
    const charged = formatQuota(quota, unit, { precise: true });
    const flagged = failedButCharged(end, quota);
    const estimate = this.estimates.get(videoId);
    const from = source === 'log' ? '/api/log/token' : 'the balance change';
    // Kept in the ledger (figures only), so the check-up's bill can name it later.
    if (flagged) void this.ledger.recordFailedCharge({ ...where, quota, unit }).catch(() => undefined);
    if (flagged)
      this.s.log.warn(
        `Account: video task ${videoId} failed, yet the gateway charged ${charged} for it (from ${from}; new-api#2050). Ask the gateway's operator for a refund.`,
      );
    else
      this.s.log.info(`Account: video task ${videoId} charged ${charged} (from ${from}; estimate ${estimate ?? '?'})`);
    reportMediaCharge(this.s, {
      kind: 'video',
      jobId: videoId,
      ...(estimate ? { estimate } : {}),
      charged,
      chargedQuota: quota,
      source,
      failedCharged: flagged,
    });
  }

  dispose(): void {
    this.provided.dispose();
  }
}
