/**
 * The daily soft limit (`gatewayStudio.spend.dailyLimit`): once today's total for a gateway
 * passes it, the user is told once that day, with the figures. What was said is remembered per
 * gateway (a reload the same day says nothing again), for the last {@link MAX_GATEWAYS} gateways.
 */
import type { LedgerStorage } from './ledger';
import { dailyLimitWarnedKey, loadState, saveState } from '../../../contracts/persistedState/account';

export const WARNED_KEY = dailyLimitWarnedKey.key;
const MAX_GATEWAYS = 50;

export class DailyLimitGuard {
  constructor(private readonly storage: LedgerStorage) {}

  private warned(): Record<string, string> {
    return loadState(this.storage, dailyLimitWarnedKey);
  }

  /**
   * Whether to warn now: a limit is set (quota units > 0), today's total passed it, and this
   * gateway was not warned about today yet. A true answer is remembered before it is returned.
   */
  shouldWarn(o: { gateway: string; day: string; todayQuota: number; limitQuota: number | undefined }): boolean {
    if (o.limitQuota === undefined || !(o.limitQuota > 0) || !(o.todayQuota > o.limitQuota)) return false;
    const all = this.warned();
    if (all[o.gateway] === o.day) return false;
    delete all[o.gateway];
    all[o.gateway] = o.day;
    const keys = Object.keys(all);
    for (const k of keys.slice(0, Math.max(0, keys.length - MAX_GATEWAYS))) delete all[k];
    void saveState(this.storage, dailyLimitWarnedKey, all);
    return true;
  }
}
