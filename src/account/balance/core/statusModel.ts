/**
 * What the balance status-bar item shows for an account snapshot: the figure with its unit, a
 * tooltip of plain lines (where the figure came from, when it was read, the key's expiry, the
 * top-up link, today's total), and whether it wears the warning colour.
 */
import * as l10n from '@vscode/l10n';
import type { AccountSnapshot } from './accountState';
import type { SourceKind } from './detect';
import { formatQuota } from './money';

export interface BalanceStatusModel {
  visible: boolean;
  /** The figure alone (`$25.00`, `1.2M tokens`, `unlimited`, `balance unavailable`). */
  figure: string;
  /** One fact per line. */
  tooltip: string[];
  topUpLink?: string;
  warn: boolean;
  /** Said once when the gateway reports no balance, then the item stays hidden. */
  quietLine?: string;
}

export function sourceName(s: SourceKind | undefined): string {
  switch (s) {
    case 'new-api':
      return l10n.t("the gateway's /api/usage/token (new-api)");
    case 'dashboard':
      return l10n.t("the gateway's /v1/dashboard/billing");
    case 'openrouter':
      return l10n.t("OpenRouter's /api/v1/key");
    case 'litellm':
      return l10n.t("the LiteLLM proxy's /key/info");
    case 'custom':
      return l10n.t('the balance source in your settings');
    default:
      return l10n.t('no source yet');
  }
}

/** `warnBelowQuota`: the user's threshold in quota units (undefined or 0: never). */
export function balanceStatusModel(
  s: AccountSnapshot,
  o: { warnBelowQuota?: number; now: number; timeText: (ms: number) => string },
): BalanceStatusModel {
  if (s.status === 'none')
    return {
      visible: false,
      figure: '',
      tooltip: [],
      warn: false,
      quietLine: l10n.t('This gateway does not report a balance.'),
    };
  if (s.status === 'unknown') return { visible: false, figure: '', tooltip: [], warn: false };
  const r = s.reading;
  const lines: string[] = [];
  let figure: string;
  let warn = false;
  if (s.status === 'unavailable' || !r) {
    figure = l10n.t('balance unavailable');
    lines.push(l10n.t('The balance could not be read; the log says why.'));
  } else {
    figure = r.unlimited ? l10n.t('unlimited') : formatQuota(r.quota ?? 0, r.unit);
    lines.push(l10n.t('Balance: {0}', figure));
    if (!r.unlimited && o.warnBelowQuota !== undefined && o.warnBelowQuota > 0 && (r.quota ?? 0) < o.warnBelowQuota) {
      warn = true;
      lines.push(l10n.t('Below your warning threshold ({0}).', formatQuota(o.warnBelowQuota, r.unit)));
    }
    if (r.expiresAt !== undefined) {
      const expired = r.expiresAt <= o.now;
      if (expired) warn = true;
      lines.push(
        expired
          ? l10n.t('The key expired on {0}.', o.timeText(r.expiresAt))
          : l10n.t('The key expires on {0}.', o.timeText(r.expiresAt)),
      );
    } else {
      lines.push(l10n.t('The key does not expire.'));
    }
  }
  lines.push(l10n.t('Source: {0}', sourceName(s.source)));
  if (s.readAt !== undefined) lines.push(l10n.t('Read at {0}', o.timeText(s.readAt)));
  lines.push(l10n.t('Today: {0}', formatQuota(s.todayQuota, s.unit, { precise: true })));
  return { visible: true, figure, tooltip: lines, topUpLink: r?.topUpLink, warn };
}
