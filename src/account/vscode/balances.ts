import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import { DEFAULT_PROFILE_ID } from '../../platform/profiles';
import { balanceLines, coolDownTooltip, otherBalanceTooltip, type ProfileBalance } from '../balance/core/balanceList';
import { persistedState } from '../../platform/persistedState';
import { failoverCoolDownsKey } from '../../contracts/persistedState/failover';
import { mayAskAboutGateway, readSpendSettings, type Accounts } from './accounts';
import { comparePrices, type ProfilePrices } from '../pricing/core/priceCompare';
import type { ReportExtras } from '../spend/core/usageReport';
import { originOf, type UsageLedger } from '../spend/core/ledger';

export const SHOW_BALANCES_COMMAND = 'gatewayStudio.spend.showBalances';

/**
 * Every profile's balance (issue 39). Another profile's account is read only when asked (the
 * quick pick), with that profile's own base URL and key, at most once a minute; the tooltip lists
 * what was read, with its age. A Default profile whose gateway a workspace set is not read unless
 * it is the active one (reading it could ask about that gateway).
 */
export class ProfileBalances {
  private readonly problems = new Map<string, string>();

  constructor(
    private readonly s: Services,
    private readonly accounts: Accounts,
    private readonly ledger: UsageLedger,
  ) {}

  /** What is known now, reading nothing. */
  list(): ProfileBalance[] {
    const active = this.s.profiles.activeId();
    return this.s.profiles.list().profiles.map((p) => {
      const problem = this.problems.get(p.id);
      return {
        profileId: p.id,
        name: p.name,
        active: p.id === active,
        snap: this.accounts.known(p.id)?.state.snapshot(),
        ...(problem ? { problem } : {}),
      };
    });
  }

  /** The lines the balance item's tooltip adds: the other profiles, and those failover skips now. */
  tooltipLines(): string[] {
    const now = Date.now();
    const skipped = persistedState(this.s.context).get(failoverCoolDownsKey);
    const cooling = this.s.profiles
      .list()
      .profiles.flatMap((p) => (Object.hasOwn(skipped, p.id) ? [{ name: p.name, coolDown: skipped[p.id]! }] : []));
    const time = (ms: number) => new Date(ms).toLocaleTimeString(vscode.env.language);
    return [...otherBalanceTooltip(this.list(), now), ...coolDownTooltip(cooling, now, time)];
  }

  /** Reads every profile whose reading is older than a minute (each with its own key), then lists them. */
  async readAll(): Promise<ProfileBalance[]> {
    const active = this.s.profiles.activeId();
    await Promise.all(
      this.s.profiles.list().profiles.map(async (p) => {
        if (!readable(p.id, active)) {
          this.problems.set(
            p.id,
            vscode.l10n.t("Its gateway comes from this workspace's settings: read only while it is active."),
          );
          return;
        }
        try {
          const e = await this.accounts.forProfile(p.id);
          this.problems.delete(p.id);
          e.state.setToday(this.ledger.todayQuota(e.gateway));
          await e.state.refreshIdle();
        } catch (err) {
          this.problems.set(p.id, err instanceof Error ? err.message : String(err));
        }
      }),
    );
    return this.list();
  }
}

/** Whether a profile may be read now without asking about a workspace's gateway. */
function readable(profileId: string, active: string): boolean {
  return !(profileId === DEFAULT_PROFILE_ID && profileId !== active && mayAskAboutGateway());
}

/**
 * What the usage view adds: each profile's name beside its gateway, and each model's price on
 * every profile that lists it (each profile's own `/api/pricing`, read with its own key).
 */
export async function usageExtras(s: Services, accounts: Accounts): Promise<ReportExtras> {
  const settings = readSpendSettings();
  const active = s.profiles.activeId();
  const names = new Map<string, string[]>();
  const books: ProfilePrices[] = [];
  for (const p of s.profiles.list().profiles) {
    if (!readable(p.id, active)) continue;
    try {
      const e = await accounts.forProfile(p.id);
      // The ledger keeps origins (ledger.ts): profiles on one origin share its rows.
      const origin = originOf(e.gateway);
      names.set(origin, [...(names.get(origin) ?? []), p.name]);
      // The unit (and so the prices' unit) is known after a first reading.
      if (e.state.snapshot().status === 'unknown') await e.state.refreshNow();
      const book = await accounts.prices(e, settings);
      books.push({ profile: p.name, unit: e.state.snapshot().unit, prices: book.all() });
    } catch (err) {
      s.log.warn(`Account: prices of profile ${p.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { profileOf: (gateway) => names.get(gateway)?.join(', '), prices: comparePrices(books) };
}

/** `Gateway Studio: Show Balances`: a quick pick of every profile's balance, read on opening. */
export function registerShowBalances(balances: ProfileBalances): vscode.Disposable {
  return vscode.commands.registerCommand(SHOW_BALANCES_COMMAND, async () => {
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
    pick.title = vscode.l10n.t('Balances of every profile');
    pick.placeholder = vscode.l10n.t(
      'Each read with its own profile’s key; figures older than a minute are read again.',
    );
    pick.matchOnDetail = true;
    const show = (list: ProfileBalance[]) => {
      pick.items = balanceLines(list, Date.now()).map((l) => ({
        label: `$(credit-card) ${l.label}`,
        description: l.figure,
        detail: l.detail,
      }));
    };
    show(balances.list());
    pick.busy = true;
    pick.show();
    pick.onDidAccept(() => pick.hide());
    pick.onDidHide(() => pick.dispose());
    try {
      show(await balances.readAll());
    } finally {
      pick.busy = false;
    }
    // The lines shown, for the host tests.
    return balanceLines(balances.list(), Date.now());
  });
}
