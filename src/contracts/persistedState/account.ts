// The account feature's keys: the usage ledger, the daily limit said, where balances were found.
// How to add a key: ./state.ts.
import { stateKey, entries, oneOf, text, emptyMap } from './state';

export { loadState, saveState } from './state';

/** global: per gateway, the day the daily limit was last said (the last 50 gateways). */
export const dailyLimitWarnedKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.spend.dailyLimitWarned.v1',
  store: 'global',
  check: entries(text),
  fallback: emptyMap,
});

/** global: the usage ledger's rows (each checked by `isRow` in account/spend/core/ledger.ts). */
export const usageLedgerKey = /* @__PURE__ */ stateKey<unknown[]>({
  key: 'gatewayStudio.spend.ledger.v1',
  store: 'global',
  check: (v) => (Array.isArray(v) ? v : undefined),
  fallback: () => [],
});

/** global: per gateway, where its balance was found (the last 50 gateways). */
export const balanceSourcesKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.spend.sources.v1',
  store: 'global',
  check: entries(oneOf('new-api', 'dashboard', 'openrouter', 'litellm', 'custom')),
  fallback: emptyMap,
});
