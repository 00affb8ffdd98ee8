/**
 * The failover lists (`gatewayStudio.failover`, the user's own settings only: a repository never
 * decides where a request and its key go) and, for one request, the order in which profiles are
 * asked: the conversation's own profile first, then the model's list. Every entry that cannot be
 * used is named in a line, never dropped in silence, and the request goes on without it.
 */
import * as l10n from '@vscode/l10n';
import type { CoolDown } from '../../../contracts/persistedState/failover';

export const FAILOVER_SETTING = 'gatewayStudio.failover';
/** More profiles than this in one list would only multiply the wait of a failing request. */
export const MAX_LIST = 8;

/** Per model id, the profile ids in the order they are asked. */
export interface FailoverLists {
  byModel: ReadonlyMap<string, readonly string[]>;
  /** What was wrong with the setting, one line each (the rest of it is used). */
  problems: string[];
}

/** A profile as the plan sees it: its id, its name, and why it cannot be used, when it cannot. */
export interface PlanProfile {
  id: string;
  name: string;
  problems: readonly string[];
}

/** Reads the setting's value: `{ "<model id>": ["<profile id>", …] }`. */
export function readFailoverLists(raw: unknown): FailoverLists {
  const byModel = new Map<string, string[]>();
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { byModel, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(l10n.t('{0} must map model ids to lists of profile ids; it was ignored.', FAILOVER_SETTING));
    return { byModel, problems };
  }
  for (const [model, list] of Object.entries(raw as Record<string, unknown>)) {
    const where = `${FAILOVER_SETTING}["${model}"]`;
    if (!Array.isArray(list)) {
      problems.push(l10n.t('{0} must be a list of profile ids; it was ignored.', where));
      continue;
    }
    const ids: string[] = [];
    for (const v of list) {
      const id = typeof v === 'string' ? v.trim().toLowerCase() : '';
      if (id === '') problems.push(l10n.t('{0}: {1} is not a profile id; skipped.', where, JSON.stringify(v)));
      else if (ids.includes(id)) problems.push(l10n.t('{0}: "{1}" is listed twice; asked once.', where, id));
      else ids.push(id);
    }
    if (ids.length > MAX_LIST) {
      problems.push(l10n.t('{0}: only the first {1} profiles are asked.', where, MAX_LIST));
      ids.length = MAX_LIST;
    }
    if (model.trim() !== '' && ids.length > 0) byModel.set(model.trim(), ids);
  }
  return { byModel, problems };
}

/** One step of a request's failover: a profile to ask, or one skipped with the reason. */
export type PlanStep = { ask: PlanProfile } | { skip: string };

/** `12:05:30`-style time of a cool-down's end (the caller's locale). */
export type TimeText = (ms: number) => string;

/** The line that says a profile is skipped for its cool-down, with what it said. */
export function coolingLine(p: PlanProfile, c: CoolDown, timeText: TimeText): string {
  return l10n.t('{0} is skipped until {1} (it said: {2}).', p.name, timeText(c.until), c.said);
}

/**
 * The profiles to ask after the conversation's own (`primary`), for `model`: the list's order,
 * without the primary, each at most once. A name that is no profile, a profile that cannot be
 * used (no address, refused headers) and one in its cool-down are steps that say so; when every
 * one of them is cooling down, they are asked anyway (a cool-down is a preference, never a block).
 */
export function failoverSteps(o: {
  model: string;
  primary: string;
  lists: FailoverLists;
  profiles: readonly PlanProfile[];
  coolDown: (profileId: string) => CoolDown | undefined;
  timeText: TimeText;
}): PlanStep[] {
  const list = o.lists.byModel.get(o.model) ?? [];
  const steps: Array<PlanStep & { cooling?: PlanProfile }> = [];
  for (const id of list) {
    if (id === o.primary) continue;
    const p = o.profiles.find((x) => x.id === id);
    if (!p) {
      steps.push({
        skip: l10n.t('{0}["{1}"] names "{2}", which is no profile; skipped.', FAILOVER_SETTING, o.model, id),
      });
      continue;
    }
    if (p.problems.length > 0) {
      steps.push({ skip: l10n.t('{0} cannot be used: {1}', p.name, p.problems.join(' ')) });
      continue;
    }
    const c = o.coolDown(p.id);
    steps.push(c ? { skip: coolingLine(p, c, o.timeText), cooling: p } : { ask: p });
  }
  if (steps.some((s) => 'ask' in s) || !steps.some((s) => s.cooling)) return steps.map(plain);
  // Every usable profile is cooling down: ask them anyway, in order, after saying so.
  return [
    ...steps.filter((s) => !s.cooling).map(plain),
    { skip: l10n.t('Every other profile for {0} is cooling down; they are asked anyway.', o.model) },
    ...steps.flatMap((s) => (s.cooling ? [{ ask: s.cooling }] : [])),
  ];
}

const plain = (s: PlanStep & { cooling?: PlanProfile }): PlanStep => ('ask' in s ? { ask: s.ask } : { skip: s.skip });

/** Whether the request has anywhere to go besides its own profile (the fast path needs no plan otherwise). */
export function hasList(lists: FailoverLists, model: string): boolean {
  return (lists.byModel.get(model)?.length ?? 0) > 0;
}
