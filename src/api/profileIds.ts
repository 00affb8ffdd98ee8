// The few names of gateway profiles needed at activation (./profiles, the parser, loads later).

/** The id of the profile made of the pre-profile settings and key. */
export const DEFAULT_PROFILE_ID = 'default';

/** The secret-storage slot of the Default profile's key (the one key of earlier versions). */
export const LEGACY_KEY_SLOT = 'gatewayStudio.apiKey';

/** The secret-storage slot of a profile's key. */
export function keySlot(profileId: string): string {
  return profileId === DEFAULT_PROFILE_ID ? LEGACY_KEY_SLOT : `${LEGACY_KEY_SLOT}.profile.${profileId}`;
}
