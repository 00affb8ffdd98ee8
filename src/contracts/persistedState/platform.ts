// The platform's keys (gateway origins, learnt protocols, profiles, the walkthrough) and the
// secret slots of the API keys. How to add a key: ./state.ts.
import { stateKey, entries, oneOf, bool, text, emptyMap } from './state';

export { loadState, saveState } from './state';

/** global: the user's answer per origin a workspace set the gateway to (no workspace file can write it). */
export const gatewayOriginsKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.workspaceGatewayOrigins',
  store: 'global',
  check: entries(oneOf('allow', 'refuse')),
  fallback: emptyMap,
});

/** global: per `"<base URL> <model>"`, the protocol a refusal taught. */
export const learnedProtocolsKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.models.learnedProtocols',
  store: 'global',
  check: entries(oneOf('chat', 'responses')),
  fallback: emptyMap,
});

/** global: the active profile's id; absent for Default. */
export const activeProfileKey = /* @__PURE__ */ stateKey<string | undefined>({
  key: 'gatewayStudio.activeProfile',
  store: 'global',
  check: text,
  fallback: () => undefined,
});

/** global: the version whose first start made the settings of the time the Default profile. */
export const profilesMigratedKey = /* @__PURE__ */ stateKey<string | undefined>({
  key: 'gatewayStudio.profilesMigrated',
  store: 'global',
  check: text,
  fallback: () => undefined,
});

/** global: the walkthrough was opened once. */
export const walkthroughShownKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.walkthroughShown',
  store: 'global',
  check: bool,
  fallback: () => false,
});

/** Slots of secret storage (only ever there: never settings, state, the webview or logs). */
export const SECRETS = {
  /** The Default profile's API key: the one key of versions before profiles, so it never moved. */
  apiKey: { key: 'gatewayStudio.apiKey', version: 1 },
  /** Another profile's API key. */
  profileApiKey: { prefix: 'gatewayStudio.apiKey.profile.', version: 1 },
} as const;

/** The secret slot of profile `profileId`'s key (`isDefault`: the Default profile). */
export function apiKeySlot(profileId: string, isDefault: boolean): string {
  return isDefault ? SECRETS.apiKey.key : SECRETS.profileApiKey.prefix + profileId;
}
