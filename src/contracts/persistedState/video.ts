// The video feature's keys: task records, clip costs, approved storyboard runs, and what agents
// spent today without asking. How to add a key: ./state.ts.
import { stateKey, entries, fields, map, text, finite, emptyMap } from './state';

export { loadState, saveState } from './state';

/**
 * global: what agents spent today without being asked, in US dollars (this machine, every
 * workspace; shared/agentAllowance.ts). Version 1 kept the sum in whatever unit the gateway
 * showed: it reads as dollars, which counts a yuan sum as more than it was (asks sooner, never later).
 */
export const agentSpentTodayKey = /* @__PURE__ */ stateKey<{ day: string; usd: number } | undefined>({
  key: 'gatewayStudio.spend.agentSpentToday',
  store: 'global',
  version: 2,
  check: fields({ day: text, usd: finite }),
  fallback: () => undefined,
  migrations: [
    {
      from: 1,
      read: (raw) => {
        const v = fields({ day: text, spent: finite })(raw);
        return v ? { day: v.day, usd: v.spent } : undefined;
      },
    },
  ],
});

/** workspace: per task key, what the clip was expected to cost and was charged (entries checked by video/jobs/core/costs.ts). */
export const clipCostsKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.video.costs.v1',
  store: 'workspace',
  check: map,
  fallback: emptyMap,
});

/**
 * workspace: per task key, the video task record (`v: 1`, checked by `isTaskRecord` in
 * video/jobs/core/record.ts). Entries a version cannot read are kept through every write.
 */
export const videoTasksKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.video.tasks',
  store: 'workspace',
  check: map,
  fallback: emptyMap,
});

/** workspace: a tasks value that was not a map, set aside once before the first save replaced it. */
export const unreadableVideoTasksKey = /* @__PURE__ */ stateKey<unknown>({
  key: 'gatewayStudio.video.tasks.unreadable',
  store: 'workspace',
  check: (v) => v,
  fallback: () => undefined,
});

/**
 * workspace: per board file, the approved run's units left, each with the request frozen at its
 * approval (checked by `parseApprovedRun` in video/storyboard/core/approved.ts). Version 1 kept
 * bare units (`{shotId, take}`): what was approved cannot be shown, so such a run is not resumed
 * (its units do not parse as approved ones); other boards' runs are kept as stored.
 */
export const storyboardRunsKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.storyboard.runs',
  store: 'workspace',
  version: 2,
  check: entries((v): readonly unknown[] | undefined => (Array.isArray(v) ? (v as unknown[]) : undefined)),
  fallback: emptyMap,
});
