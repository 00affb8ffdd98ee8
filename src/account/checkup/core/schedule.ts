/**
 * The optional check-up schedule (`gatewayStudio.checkup.schedule`, the user's own settings
 * only): which profile and model to check up how often, which of them are due from the stored
 * history, and the cost bound of an unattended run. A scheduled check-up never runs the window
 * probe and stops at the estimate the command would show, plus the 20% the estimate may be off.
 */
import * as l10n from '@vscode/l10n';
import type { Spent } from './types';

export interface ScheduleEntry {
  /** A profile's id or name, as the user wrote it. */
  profile: string;
  model: string;
  everyDays: number;
}

const DAY_MS = 86_400_000;
export const DEFAULT_EVERY_DAYS = 7;
const MAX_ENTRIES = 20;
/** The estimate may be off by this share (issue 41's bound); a scheduled run stops past it. */
export const SCHEDULE_MARGIN = 1.2;

const name = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' && v.length <= 200 ? v.trim() : undefined;

/** The setting's entries, and a clear line for each one that cannot be used (the rest still run). */
export function parseSchedule(raw: unknown): { entries: ScheduleEntry[]; errors: string[] } {
  const entries: ScheduleEntry[] = [];
  const errors: string[] = [];
  if (raw === undefined || raw === null) return { entries, errors };
  if (!Array.isArray(raw))
    return { entries, errors: [l10n.t('gatewayStudio.checkup.schedule must be a list of entries.')] };
  raw.forEach((e: unknown, i) => {
    const o = typeof e === 'object' && e !== null ? (e as Record<string, unknown>) : {};
    const profile = name(o.profile);
    const model = name(o.model);
    const every = o.everyDays ?? DEFAULT_EVERY_DAYS;
    const at = i + 1;
    if (!profile || !model)
      errors.push(l10n.t('gatewayStudio.checkup.schedule entry {0}: it needs a profile and a model.', at));
    else if (typeof every !== 'number' || !Number.isInteger(every) || every < 1 || every > 365)
      errors.push(
        l10n.t('gatewayStudio.checkup.schedule entry {0}: everyDays must be a whole number from 1 to 365.', at),
      );
    else if (entries.length >= MAX_ENTRIES)
      errors.push(l10n.t('gatewayStudio.checkup.schedule entry {0}: at most {1} entries are run.', at, MAX_ENTRIES));
    else entries.push({ profile, model, everyDays: every });
  });
  return { entries, errors };
}

/**
 * Whether an entry is due: no check-up of its profile (by the name the history keeps) and model
 * in the last `everyDays`. A history entry from the future (a clock set back) counts as recent.
 */
export function isDue(
  e: ScheduleEntry,
  profileName: string,
  history: ReadonlyArray<{ at: number; profile: string; model: string }>,
  now: number,
): boolean {
  const last = Math.max(
    -Infinity,
    ...history.filter((h) => h.profile === profileName && h.model === e.model).map((h) => h.at),
  );
  return !(now - last < e.everyDays * DAY_MS);
}

/** The most an unattended check-up may spend, in quota units; undefined (do not run) without a price. */
export function scheduledBound(estimate: Spent): number | undefined {
  return estimate.quota !== undefined && estimate.quota > 0 ? Math.ceil(estimate.quota * SCHEDULE_MARGIN) : undefined;
}

/** Why a profile's scheduled check-up is skipped for its balance, or undefined when it may run. */
export function balanceSkip(b: {
  status: 'unknown' | 'ok' | 'unavailable' | 'none';
  quota?: number;
  unlimited?: boolean;
}): string | undefined {
  if (b.status === 'none') return l10n.t('the relay reports no balance for it');
  if (b.status === 'ok' && !b.unlimited && b.quota !== undefined && b.quota <= 0)
    return l10n.t('its balance is used up');
  return undefined;
}
