// Inline completion's key: the snooze. How to add a key: ./state.ts.
import { stateKey, finite } from './state';

/** global: inline completion is snoozed until this time (ms); 0: not snoozed. */
export const completionsSnoozedUntilKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.completions.snoozedUntil',
  store: 'global',
  check: finite,
  fallback: () => 0,
});
