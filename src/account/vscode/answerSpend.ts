import * as vscode from 'vscode';
import type { RequestQuoter } from '../../platform/answerCosts';
import type { Services } from '../../platform/services';
import { userValue } from '../../platform/userSettings';
import { formatQuota, quotaFromDisplay, type MoneyUnit } from '../balance/core/money';
import { priceOfAnswer } from '../spend/core/answerPrice';
import { DailyLimitGuard } from '../spend/core/dailyLimit';
import { dayOf, type UsageLedger } from '../spend/core/ledger';
import { registerUsageView, SHOW_USAGE_COMMAND } from '../spend/vscode/usageView';
import { dailyLimitAction, requestQuote } from '../spend/core/requestQuote';
import { mayAskAboutGateway, readSpendSettings, type Accounts } from './accounts';
import { usageExtras } from './balances';

/** `gatewayStudio.spend.dailyLimit`, in the gateway's display unit; 0 or unset: none. */
function dailyLimitSetting(): number {
  // The user's own limit: a workspace may not raise it (nor silence it).
  const v = userValue('spend.dailyLimit');
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

function gatewayHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * What the account adds around each answer: its cost for the chat (offered on `s.answerCosts`,
 * so the chat never imports the account), the daily soft limit, and the usage
 * view. `afterCount` runs once the ledger has counted an answer or a clip.
 */
export function registerAnswerSpend(
  s: Services,
  accounts: Accounts,
  ledger: UsageLedger,
): vscode.Disposable & { afterCount(gateway: string, unit: MoneyUnit): void; warnings(): string[] } {
  const guard = new DailyLimitGuard(s.context.globalState);
  let afterCount: (gateway: string, unit: MoneyUnit) => void = () => undefined;
  /** The daily-limit warnings said in this window (the last few), for the debug-state command. */
  const said: string[] = [];
  const pricer = s.answerCosts.offer(async (q) => {
    const settings = readSpendSettings();
    if (!settings.enabled) return undefined;
    const e = await accounts.answering(q.profile);
    // Each gateway prices its own answers: an answer from another one (the settings changed
    // meanwhile) gets no figure rather than a wrong one.
    if (!e || e.gateway !== q.gateway) return undefined;
    if (e.state.snapshot().status === 'unknown') await e.state.refreshNow();
    const unit = e.state.snapshot().unit;
    const book = await accounts.prices(e, settings);
    const cost = priceOfAnswer(q, book.lookup(q.model), unit);
    // No usage from the gateway: the ledger counted the answer without a figure; the estimate
    // from the tokens counted here goes in, marked as one.
    if (cost.estimate && cost.quota !== undefined) {
      await ledger.recordEstimate({ gateway: q.gateway, model: q.model, quota: cost.quota, unit });
      e.state.setToday(ledger.todayQuota(e.gateway));
      afterCount(e.gateway, unit);
    }
    return cost;
  });
  // Before a request, for the chat's spend caps: the model's prices (read once, then cached) and,
  // when the user's daily limit blocks, today's spend on this gateway against it.
  const quote: RequestQuoter = async (q) => {
    const settings = readSpendSettings();
    // The account of the profile that will answer (as the answer is priced); without a gateway
    // (the composer's line) the active one, unless reading it could ask about a workspace's.
    const e = !settings.enabled
      ? undefined
      : q.gateway !== undefined
        ? await accounts.answering(q.profile)
        : mayAskAboutGateway()
          ? undefined
          : await accounts.current();
    if (!e || (q.gateway !== undefined && e.gateway !== q.gateway)) return undefined;
    if (e.state.snapshot().status === 'unknown') await e.state.refreshNow();
    const unit = e.state.snapshot().unit;
    const limit = dailyLimitSetting();
    const blocks = limit > 0 && dailyLimitAction(userValue('spend.dailyLimitAction')) === 'block';
    const daily = blocks ? { spent: ledger.todayQuota(e.gateway), limit: quotaFromDisplay(limit, unit) } : undefined;
    return requestQuote((await accounts.prices(e, settings)).lookup(q.model), unit, daily);
  };
  s.answerCosts.quoter = quote;
  const view = registerUsageView(ledger, () => usageExtras(s, accounts));
  afterCount = (gateway, unit) => {
    const limit = dailyLimitSetting();
    const today = ledger.todayQuota(gateway);
    const limitQuota = limit > 0 ? quotaFromDisplay(limit, unit) : undefined;
    if (!guard.shouldWarn({ gateway, day: dayOf(Date.now()), todayQuota: today, limitQuota })) return;
    const show = vscode.l10n.t('Show Usage');
    const text = vscode.l10n.t(
      "Today's spend on {0} is {1}, past your daily limit of {2} (gatewayStudio.spend.dailyLimit).",
      gatewayHost(gateway),
      formatQuota(today, unit, { precise: true }),
      formatQuota(limitQuota ?? 0, unit, { precise: true }),
    );
    said.push(text);
    if (said.length > 5) said.shift();
    void vscode.window.showWarningMessage(text, show).then((pick) => {
      if (pick === show) void vscode.commands.executeCommand(SHOW_USAGE_COMMAND);
    });
  };
  return {
    afterCount,
    warnings: () => [...said],
    dispose() {
      pricer.dispose();
      if (s.answerCosts.quoter === quote) s.answerCosts.quoter = undefined;
      view.dispose();
    },
  };
}
