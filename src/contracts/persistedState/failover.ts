// Failover's key (issue 39): the profiles skipped for a while after they refused a chat request.
// The chat writes it (src/chat/failover), the account's balance tooltip reads it: a file of its
// own, so neither pulls in the other's keys. How to add a key: ./state.ts.
import { entries, fields, finite, text, emptyMap, stateKey } from './state';

export { loadState, saveState } from './state';

/** One profile's cool-down: until when it is skipped, why (the cause's word), what it said. */
export interface CoolDown {
  /** Milliseconds since the epoch. */
  until: number;
  /** `rate_limit`, `payment`, `quota`, `server`, `connection` or `key`. */
  cause: string;
  /** The relay's own words, redacted and cut to 300 characters. */
  said: string;
}

/** global: per profile id, its cool-down (a relay out of balance is out of it in every window). */
export const failoverCoolDownsKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.failover.coolDowns.v1',
  store: 'global',
  check: entries(fields<CoolDown>({ until: finite, cause: text, said: text })),
  fallback: emptyMap,
});
