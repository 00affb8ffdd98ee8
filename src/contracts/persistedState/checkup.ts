// The relay check-up's key (account/checkup): its own file, so the key loads with the check-up on
// first use, not with the account's keys at activation. How to add a key: ./state.ts.
import { stateKey } from './state';

/** One stored check-up's shape as far as the store checks it (figures only; report.ts `HistoryEntry`). */
export interface StoredCheckup {
  at: number;
  profile: string;
  model: string;
  verdicts: Record<string, unknown>;
  figures: Record<string, unknown>;
}

const isStored = (v: unknown): v is StoredCheckup => {
  const o = v as Partial<StoredCheckup> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.at === 'number' &&
    typeof o.profile === 'string' &&
    typeof o.model === 'string' &&
    typeof o.verdicts === 'object' &&
    o.verdicts !== null &&
    typeof o.figures === 'object' &&
    o.figures !== null
  );
};

/** global: the check-ups' figures, oldest first (the last 200); entries of another shape are dropped. */
export const checkupHistoryKey = /* @__PURE__ */ stateKey<StoredCheckup[]>({
  key: 'gatewayStudio.checkup.history.v1',
  store: 'global',
  check: (v) => (Array.isArray(v) ? v.filter(isStored) : undefined),
  fallback: () => [],
});
