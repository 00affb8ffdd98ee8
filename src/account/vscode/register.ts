import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import type { UsageEvent } from '../../platform/usageEvents';
import type { AccountSnapshot } from '../balance/core/accountState';
import { formatQuota, quotaFromDisplay } from '../balance/core/money';
import { BalanceStatusBar, REFRESH_BALANCE_COMMAND } from '../balance/vscode/statusBar';
import { answerCost, videoCost } from '../spend/core/cost';
import { UsageLedger } from '../spend/core/ledger';
import { Accounts, mayAskAboutGateway, readSpendSettings, type AccountEntry } from './accounts';
import { VideoSpend } from './videoSpend';
import { registerAnswerSpend } from './answerSpend';

export const ACCOUNT_COMMANDS = {
  refreshBalance: REFRESH_BALANCE_COMMAND,
  exportUsage: 'gatewayStudio.spend.exportUsage',
  /** Hidden: what the balance item shows, for integration tests. */
  debugState: 'gatewayStudio.spend.debugState',
} as const;

/** What the debug-state command returns. */
export interface AccountDebugState {
  /** The item's text without its icon (`$25.00`), empty while hidden. */
  figure: string;
  visible: boolean;
  warn: boolean;
  tooltip: string[];
  status?: AccountSnapshot['status'];
  /** Why the balance is unavailable (as logged). */
  why?: string;
  quota?: number;
  todayQuota?: number;
  /** Reads of the balance made so far (settled). */
  reads: number;
  /** Answers and clips counted, and the last failure to count one. */
  events: number;
  lastError?: string;
  /** The daily-limit warnings said in this window (the last few). */
  dailyWarnings: string[];
  /** The gateway clips are billed to when it is not the one shown (`videoBaseUrl` with an account). */
  videoAccount?: string;
}

const IDLE_TICK_MS = 60_000;

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The account feature: the balance item, the spend ledger, and the reads that feed them, after
 * answers and clips (heard on `s.usage`) and at most once a minute while idle. Loaded by
 * `extension.ts` through a dynamic import after activation.
 */
export function registerAccount(s: Services): vscode.Disposable {
  const bar = new BalanceStatusBar();
  const ledger = new UsageLedger(s.context.globalState);
  let reads = 0;
  let events = 0;
  let lastError: string | undefined;
  let shown: AccountEntry | undefined;
  /** The account of a `videoBaseUrl` with a balance of its own, when there is one: clips go there. */
  let videoAccount: AccountEntry | undefined;
  const render = (e: AccountEntry, snap: AccountSnapshot): void => {
    const settings = readSpendSettings();
    if (!settings.enabled) return bar.render({ ...snap, status: 'unknown' }, undefined);
    const warnBelow = settings.warnBelow > 0 ? quotaFromDisplay(settings.warnBelow, snap.unit) : undefined;
    if (shown === e) bar.render(snap, warnBelow, videoNote(e));
  };
  /** The item shows the chat gateway's balance: the tooltip says where clips are billed instead. */
  const videoNote = (e: AccountEntry): string[] => {
    const v = videoAccount;
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
  };
  const accounts = new Accounts(s, (e, snap) => {
    if (snap.status !== 'unknown') reads += 1;
    noteCharge(e, snap);
    render(e, snap);
    if (e === videoAccount && shown) render(shown, shown.state.snapshot());
    videoSpend.onReading(e, snap);
  });
  const videoSpend = new VideoSpend(s, accounts, ledger);

  /** A balance that fell while exactly one answer or clip was pending is that one's charge. */
  const noteCharge = (e: AccountEntry, snap: AccountSnapshot): void => {
    const q = snap.status === 'ok' && snap.reading && !snap.reading.unlimited ? snap.reading.quota : undefined;
    if (q === undefined) return;
    const only = e.pending.length === 1 ? e.pending[0] : undefined;
    if (only && e.lastQuota !== undefined && e.lastQuota >= q) {
      void ledger.recordCharge({ gateway: e.gateway, model: only.model, quota: e.lastQuota - q, unit: snap.unit });
      if (only.clip) videoSpend.balanceCharged(only.clip, e.lastQuota - q, snap.unit);
    }
    e.pending = [];
    e.lastQuota = q;
  };

  const setVideoAccount = (v: AccountEntry | undefined, chat: AccountEntry): void => {
    if (v === videoAccount) return;
    videoAccount = v;
    if (v) v.state.setToday(ledger.todayQuota(v.gateway));
    render(chat, chat.state.snapshot());
  };

  const show = async (o: { read: 'idle' | 'now' | 'none' }): Promise<AccountEntry | undefined> => {
    const settings = readSpendSettings();
    if (!settings.enabled) return undefined;
    const e = await accounts.current();
    if (!e) return undefined;
    if (shown !== e) {
      shown = e;
      e.state.setToday(ledger.todayQuota(e.gateway));
      render(e, e.state.snapshot());
    }
    if (o.read === 'idle') await e.state.refreshIdle();
    else if (o.read === 'now') await e.state.refreshNow();
    if (o.read !== 'none') {
      // A video gateway of its own is read with the chat's, so a clip's quote finds its prices.
      // Read again even after it said "none": a gateway may gain its endpoints (at most once a
      // minute while idle, like the chat's).
      const v = await accounts.videoEntry(e);
      if (v) await (o.read === 'idle' ? v.state.refreshIdle() : v.state.refreshNow());
      setVideoAccount(v && v.state.snapshot().status !== 'none' ? v : undefined, e);
    }
    return e;
  };

  const spend = registerAnswerSpend(s, accounts, ledger);
  const countedClips = new Set<string>();
  const onEvent = async (ev: UsageEvent): Promise<void> => {
    const settings = readSpendSettings();
    if (!settings.enabled) return;
    const chat = await show({ read: 'none' });
    if (!chat) return;
    // A clip is counted against the account that billed it (see Accounts.forClips).
    const e = ev.kind === 'clip' ? ((await accounts.forClips(chat, { read: true })) ?? chat) : chat;
    if (ev.kind === 'clip') setVideoAccount(e !== chat ? e : undefined, chat);
    // The unit (and so the user's prices in it) is known after the first reading.
    if (e.state.snapshot().status === 'unknown') await e.state.refreshNow();
    const unit = e.state.snapshot().unit;
    const book = await accounts.prices(e, settings);
    let logged = false;
    if (ev.kind === 'answer') {
      const cost = answerCost(ev.usage, book.lookup(ev.model));
      await ledger.recordAnswer({ gateway: ev.gateway, model: ev.model, usage: ev.usage, cost, unit });
    } else {
      if (ev.videoId) {
        if (countedClips.has(ev.videoId)) return;
        countedClips.add(ev.videoId);
      }
      const cost =
        ev.seconds !== undefined
          ? videoCost(ev.seconds, book.lookup(ev.model))
          : { estimate: true, reason: 'no-usage' as const };
      await ledger.recordClip({ gateway: e.gateway, model: ev.model, seconds: ev.seconds ?? 0, cost, unit });
      // A clip whose charge the gateway's log shows is not attributed a balance change as well.
      logged = await videoSpend.clipEnded(e, ev, cost, unit);
    }
    events += 1;
    if (!logged) e.pending.push({ model: ev.model, ...(ev.kind === 'clip' ? videoSpend.pendingOf(ev) : {}) });
    e.state.setToday(ledger.todayQuota(e.gateway));
    spend.afterCount(e.gateway, unit);
    e.state.afterUse();
  };

  /** The gateway (or profile) changed: forget what is shown and read the new one's account. */
  const showAnother = (): void => {
    shown = undefined;
    bar.render(
      {
        gateway: '',
        status: 'unknown',
        unit: { kind: 'USD', quotaPerUnit: 1, rateMicro: 1, symbol: '$' },
        todayQuota: 0,
      },
      undefined,
    );
    if (!mayAskAboutGateway()) void show({ read: 'now' }).catch(() => undefined);
  };

  const idle = setInterval(() => {
    if (!vscode.window.state.focused || mayAskAboutGateway()) return;
    void show({ read: 'idle' }).catch((err: unknown) => s.log.warn(`Account: ${String(err)}`));
  }, IDLE_TICK_MS);

  const disposables: vscode.Disposable[] = [
    bar,
    videoSpend,
    accounts,
    spend,
    { dispose: () => clearInterval(idle) },
    s.usage.on(
      (ev) =>
        void onEvent(ev).catch((err: unknown) => {
          lastError = err instanceof Error ? err.message : String(err);
          s.log.warn(`Account: an answer or clip was not counted: ${lastError}`);
        }),
    ),
    vscode.workspace.onDidChangeConfiguration((c) => {
      if (!c.affectsConfiguration('gatewayStudio')) return;
      accounts.forgetPrices();
      if (shown) render(shown, shown.state.snapshot());
      if (
        c.affectsConfiguration('gatewayStudio.baseUrl') ||
        c.affectsConfiguration('gatewayStudio.spend') ||
        c.affectsConfiguration('gatewayStudio.profiles')
      )
        showAnother();
    }),
    // Each profile is an account of its own: the balance follows the active one.
    s.profiles.onDidChange(showAnother),
    vscode.commands.registerCommand(ACCOUNT_COMMANDS.refreshBalance, async () => {
      await show({ read: 'now' });
    }),
    vscode.commands.registerCommand(ACCOUNT_COMMANDS.exportUsage, async () => {
      const target = await vscode.window.showSaveDialog({
        filters: { CSV: ['csv'] },
        saveLabel: vscode.l10n.t('Export Usage'),
        defaultUri: vscode.Uri.file('gateway-usage.csv'),
      });
      if (!target) return;
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(ledger.toCsv()));
      void vscode.window.showInformationMessage(vscode.l10n.t('Usage exported to {0}.', target.fsPath));
    }),
    vscode.commands.registerCommand(ACCOUNT_COMMANDS.debugState, (): AccountDebugState => {
      const m = bar.model;
      const snap = shown?.state.snapshot();
      return {
        figure: m.visible ? m.figure : '',
        visible: m.visible,
        warn: m.warn,
        tooltip: m.tooltip,
        status: snap?.status,
        why: snap?.why,
        quota: snap?.reading?.quota,
        todayQuota: snap?.todayQuota,
        reads,
        events,
        lastError,
        dailyWarnings: spend.warnings(),
        ...(videoAccount ? { videoAccount: videoAccount.gateway } : {}),
      };
    }),
  ];
  // The first reading, unless it could ask about a workspace's gateway before the user used it.
  if (!mayAskAboutGateway()) void show({ read: 'idle' }).catch(() => undefined);
  return vscode.Disposable.from(...disposables);
}
