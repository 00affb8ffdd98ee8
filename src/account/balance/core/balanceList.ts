/**
 * Every profile's balance in one list (issue 39): for the status bar's tooltip and the "Show
 * Balances" quick pick. Each figure has its unit (formatQuota) and its source and age beside it;
 * a profile not read yet, or that cannot be read (no key, no address), says so instead.
 */
import * as l10n from '@vscode/l10n';
import type { CoolDown } from '../../../contracts/persistedState/failover';
import type { AccountSnapshot } from './accountState';
import { formatQuota } from './money';
import { sourceName } from './statusModel';

export interface ProfileBalance {
  profileId: string;
  name: string;
  active: boolean;
  /** The profile's account as last read; undefined when it was never asked for. */
  snap?: AccountSnapshot;
  /** Why it cannot be read (no key, no base URL, a workspace's gateway): said instead of a figure. */
  problem?: string;
}

export interface BalanceLine {
  profileId: string;
  /** The profile's name, `(active)` after the active one. */
  label: string;
  /** The figure with its unit, or what stands in for one. */
  figure: string;
  /** Where it came from and how old it is. */
  detail: string;
}

/** How long ago `at` was, in words: `just now`, `4 min ago`, `2 h ago`, `3 days ago`. */
export function ageText(at: number, now: number): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return l10n.t('just now');
  if (s < 3600) return l10n.t('{0} min ago', Math.floor(s / 60));
  if (s < 86_400) return l10n.t('{0} h ago', Math.floor(s / 3600));
  return l10n.t('{0} days ago', Math.floor(s / 86_400));
}

function figureOf(b: ProfileBalance): string {
  if (b.problem) return l10n.t('not read');
  const s = b.snap;
  if (!s || s.status === 'unknown') return l10n.t('not read yet');
  if (s.status === 'none') return l10n.t('no balance reported');
  if (s.status === 'unavailable' || !s.reading) return l10n.t('balance unavailable');
  return s.reading.unlimited ? l10n.t('unlimited') : formatQuota(s.reading.quota ?? 0, s.reading.unit);
}

function detailOf(b: ProfileBalance, now: number): string {
  if (b.problem) return b.problem;
  const s = b.snap;
  if (!s || s.status === 'unknown') return l10n.t('Read with this profile’s own key when you run Show Balances.');
  if (s.status === 'none') return l10n.t('This gateway does not report a balance.');
  const age = s.readAt !== undefined ? ageText(s.readAt, now) : l10n.t('never read');
  if (s.status === 'unavailable' || !s.reading)
    return l10n.t('{0}; the log says why (tried {1})', sourceName(s.source), age);
  return l10n.t('{0}, read {1}', sourceName(s.source), age);
}

/** One line per profile: the active one first, then by name. */
export function balanceLines(list: readonly ProfileBalance[], now: number): BalanceLine[] {
  return [...list]
    .sort((a, b) => Number(b.active) - Number(a.active) || a.name.localeCompare(b.name))
    .map((b) => ({
      profileId: b.profileId,
      label: b.active ? l10n.t('{0} (active)', b.name) : b.name,
      figure: figureOf(b),
      detail: detailOf(b, now),
    }));
}

/** The tooltip's lines for the profiles other than the active one. */
export function otherBalanceTooltip(list: readonly ProfileBalance[], now: number): string[] {
  const others = balanceLines(
    list.filter((b) => !b.active),
    now,
  );
  if (others.length === 0) return [];
  return [l10n.t('Other profiles:'), ...others.map((l) => `${l.label}: ${l.figure} (${l.detail})`)];
}

/**
 * The tooltip's lines for the profiles failover skips now (chat/failover: a profile that refused a
 * request is skipped for a while): until when, and what it said. Ended cool-downs say nothing.
 */
export function coolDownTooltip(
  list: ReadonlyArray<{ name: string; coolDown: CoolDown }>,
  now: number,
  timeText: (ms: number) => string,
): string[] {
  const live = list.filter((x) => x.coolDown.until > now);
  if (live.length === 0) return [];
  return [
    l10n.t('Failover skips:'),
    ...live.map((x) => l10n.t('{0} until {1} (it said: {2})', x.name, timeText(x.coolDown.until), x.coolDown.said)),
  ];
}
