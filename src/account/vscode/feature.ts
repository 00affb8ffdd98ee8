import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import type { UsageEvent } from '../../platform/usageEvents';
import type { AccountSnapshot } from '../balance/core/accountState';
import { formatQuota, quotaFromDisplay } from '../balance/core/money';
import { BalanceStatusBar } from '../balance/vscode/statusBar';
import { answerCost, videoCost } from '../spend/core/cost';
import { imageCost } from '../spend/core/imageCharge';
import { quotaOfDollars } from '../spend/core/answerPrice';
import { reportedCostIn } from '../../api/chat/gatewayCost';
import { UsageLedger } from '../spend/core/ledger';
import { Accounts, mayAskAboutGateway, readSpendSettings, type AccountEntry } from './accounts';
import { VideoSpend } from './videoSpend';
import { registerAnswerSpend } from './answerSpend';
import { ProfileBalances } from './balances';

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** How far `show` reads the balance: as the idle tick does, now, or not at all. */
type ShowRead = 'idle' | 'now' | 'none';

/**
 * The account feature's state: the balance item and the account it shows, the spend ledger, and
 * the counting of answers and clips that feeds them. `registerAccount` wires it to VS Code.
 */
export class AccountFeature implements vscode.Disposable {
  readonly bar = new BalanceStatusBar();
  readonly ledger: UsageLedger;
  readonly accounts: Accounts;
  readonly videoSpend: VideoSpend;
  readonly spend: ReturnType<typeof registerAnswerSpend>;
  /** Every profile's balance, for the tooltip and the quick pick. */
  readonly balances: ProfileBalances;
  /** Reads of the balance made so far (settled). */
  reads = 0;
  /** Answers and clips counted, and the last failure to count one. */
  events = 0;
  lastError: string | undefined;
  /** The account the item shows (the active profile's chat gateway). */
  shown: AccountEntry | undefined;
  /** The account of a `videoBaseUrl` with a balance of its own, when there is one: clips go there. */
  videoAccount: AccountEntry | undefined;
  private readonly countedClips = new Set<string>();

  constructor(private readonly s: Services) {
    this.ledger = new UsageLedger(s.context.globalState);
    this.accounts = new Accounts(s, (e, snap) => this.onReading(e, snap));
    this.videoSpend = new VideoSpend(s, this.accounts, this.ledger);
    this.spend = registerAnswerSpend(s, this.accounts, this.ledger);
    this.balances = new ProfileBalances(s, this.accounts, this.ledger);
  }

  private onReading(e: AccountEntry, snap: AccountSnapshot): void {
    if (snap.status !== 'unknown') this.reads += 1;
    this.noteCharge(e, snap);
    this.render(e, snap);
    // Another profile's reading changes the shown item's tooltip (its list of every balance).
    if (e !== this.shown && this.shown) this.render(this.shown, this.shown.state.snapshot());
    this.videoSpend.onReading(e, snap);
  }

  /** Draws `e`'s reading when it is the account shown (or hides the figure while spend is off). */
  render(e: AccountEntry, snap: AccountSnapshot): void {
    const settings = readSpendSettings();
    if (!settings.enabled) return this.bar.render({ ...snap, status: 'unknown' }, undefined);
    const warnBelow = settings.warnBelow > 0 ? quotaFromDisplay(settings.warnBelow, snap.unit) : undefined;
    if (this.shown === e) this.bar.render(snap, warnBelow, [...this.videoNote(e), ...this.balances.tooltipLines()]);
  }

  /** The item shows the chat gateway's balance: the tooltip says where clips are billed instead. */
  private videoNote(e: AccountEntry): string[] {
    const v = this.videoAccount;
    if (!v || v === e) return [];
    const vs = v.state.snapshot();
    const figure =
      vs.status === 'ok' && vs.reading
        ? vs.reading.unlimited
          ? vscode.l10n.t('unlimited')
          : formatQuota(vs.reading.quota ?? 0, vs.reading.unit)
        : vscode.l10n.t('balance unavailable');
    return [
      vscode.l10n.t(
        'Video clips are billed by {0} (gatewayStudio.videoBaseUrl), not counted above: its balance {1}, today {2}.',
        hostOf(v.gateway),
        figure,
        formatQuota(vs.todayQuota, vs.unit, { precise: true }),
      ),
    ];
  }

  /** A balance that fell while exactly one answer or clip was pending is that one's charge. */
  private noteCharge(e: AccountEntry, snap: AccountSnapshot): void {
    const q = snap.status === 'ok' && snap.reading && !snap.reading.unlimited ? snap.reading.quota : undefined;
    if (q === undefined) return;
    const only = e.pending.length === 1 ? e.pending[0] : undefined;
    if (only && e.lastQuota !== undefined && e.lastQuota >= q) {
      void this.ledger.recordCharge({ gateway: e.gateway, model: only.model, quota: e.lastQuota - q, unit: snap.unit });
      if (only.image) this.videoSpend.imageCharged(only.image.jobId, e.lastQuota - q, snap.unit);
      if (only.clip)
        this.videoSpend.balanceCharged(
          { gateway: e.gateway, model: only.model },
          only.clip,
          e.lastQuota - q,
          snap.unit,
        );
    }
    e.pending = [];
    e.lastQuota = q;
  }

  private setVideoAccount(v: AccountEntry | undefined, chat: AccountEntry): void {
    if (v === this.videoAccount) return;
    this.videoAccount = v;
    if (v) v.state.setToday(this.ledger.todayQuota(v.gateway));
    this.render(chat, chat.state.snapshot());
  }

  /** Shows the current gateway's account, read as `o.read` says; undefined while spend is off or no gateway is set. */
  async show(o: { read: ShowRead }): Promise<AccountEntry | undefined> {
    const settings = readSpendSettings();
    if (!settings.enabled) return undefined;
    const e = await this.accounts.current();
    if (!e) return undefined;
    if (this.shown !== e) {
      this.shown = e;
      e.state.setToday(this.ledger.todayQuota(e.gateway));
      this.render(e, e.state.snapshot());
    }
    if (o.read === 'idle') await e.state.refreshIdle();
    else if (o.read === 'now') await e.state.refreshNow();
    if (o.read !== 'none') {
      // A video gateway of its own is read with the chat's, so a clip's quote finds its prices.
      // Read again even after it said "none": a gateway may gain its endpoints (at most once a
      // minute while idle, like the chat's).
      const v = await this.accounts.videoEntry(e);
      if (v) await (o.read === 'idle' ? v.state.refreshIdle() : v.state.refreshNow());
      this.setVideoAccount(v && v.state.snapshot().status !== 'none' ? v : undefined, e);
    }
    return e;
  }

  /** Counts an answer or a clip in the ledger of the account that billed it; failures are kept and logged. */
  count(ev: UsageEvent): void {
    void this.countEvent(ev).catch((err: unknown) => {
      this.lastError = err instanceof Error ? err.message : String(err);
      this.s.log.warn(`Account: an answer or clip was not counted: ${this.lastError}`);
    });
  }

  private async countEvent(ev: UsageEvent): Promise<void> {
    const settings = readSpendSettings();
    if (!settings.enabled) return;
    const chat = await this.show({ read: 'none' });
    if (!chat) return;
    // A clip or an answer is counted against the account that billed it (see Accounts.forClips;
    // an answer after a failover names the profile that gave it).
    const e =
      ev.kind === 'clip'
        ? ((await this.accounts.forClips(chat, { read: true })) ?? chat)
        : ((await this.accounts.answering(ev.profile)) ?? chat);
    if (ev.kind === 'clip') this.setVideoAccount(e !== chat ? e : undefined, chat);
    // The unit (and so the user's prices in it) is known after the first reading.
    if (e.state.snapshot().status === 'unknown') await e.state.refreshNow();
    const unit = e.state.snapshot().unit;
    const book = await this.accounts.prices(e, settings);
    let logged = false;
    if (ev.kind === 'image') {
      // One answer is one job: a save tried again after a failure never counts it twice.
      if (this.countedClips.has(`image:${ev.jobId}`)) return;
      this.countedClips.add(`image:${ev.jobId}`);
      const cost = imageCost(ev.images, book.lookup(ev.model));
      this.videoSpend.imageCounted(ev.jobId, cost, unit);
      await this.ledger.recordImages({ gateway: e.gateway, model: ev.model, images: ev.images, cost, unit });
    } else if (ev.kind === 'answer') {
      // The gateway's own figure for the answer wins over usage × price (issue 39).
      const reported = reportedCostIn(ev.usage);
      const cost = reported
        ? { quota: quotaOfDollars(reported.usd, unit), estimate: false }
        : answerCost(ev.usage, book.lookup(ev.model));
      await this.ledger.recordAnswer({ gateway: ev.gateway, model: ev.model, usage: ev.usage, cost, unit });
    } else {
      if (ev.videoId) {
        if (this.countedClips.has(ev.videoId)) return;
        this.countedClips.add(ev.videoId);
      }
      const cost =
        ev.seconds !== undefined
          ? videoCost(ev.seconds, book.lookup(ev.model))
          : { estimate: true, reason: 'no-usage' as const };
      await this.ledger.recordClip({ gateway: e.gateway, model: ev.model, seconds: ev.seconds ?? 0, cost, unit });
      // A clip whose charge the gateway's log shows is not attributed a balance change as well.
      logged = await this.videoSpend.clipEnded(e, ev, cost, unit);
    }
    this.events += 1;
    if (!logged)
      e.pending.push({
        model: ev.model,
        ...(ev.kind === 'clip' ? this.videoSpend.pendingOf(ev) : {}),
        ...(ev.kind === 'image' ? { image: { jobId: ev.jobId } } : {}),
      });
    e.state.setToday(this.ledger.todayQuota(e.gateway));
    this.spend.afterCount(e.gateway, unit);
    e.state.afterUse();
  }

  /** The gateway (or profile) changed: forget what is shown and read the new one's account. */
  showAnother(): void {
    this.shown = undefined;
    this.bar.render(
      {
        gateway: '',
        status: 'unknown',
        unit: { kind: 'USD', quotaPerUnit: 1, rateMicro: 1, symbol: '$' },
        todayQuota: 0,
      },
      undefined,
    );
    if (!mayAskAboutGateway()) void this.show({ read: 'now' }).catch(() => undefined);
  }

  /** A change of the settings: prices are read again, and another gateway is shown when it changed. */
  settingsChanged(c: vscode.ConfigurationChangeEvent): void {
    if (!c.affectsConfiguration('gatewayStudio')) return;
    this.accounts.forgetPrices();
    if (this.shown) this.render(this.shown, this.shown.state.snapshot());
    if (
      c.affectsConfiguration('gatewayStudio.baseUrl') ||
      c.affectsConfiguration('gatewayStudio.spend') ||
      c.affectsConfiguration('gatewayStudio.profiles')
    )
      this.showAnother();
  }

  dispose(): void {
    this.bar.dispose();
    this.videoSpend.dispose();
    this.accounts.dispose();
    this.spend.dispose();
  }
}
