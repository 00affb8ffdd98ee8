// The few names of gateway profiles needed at activation (./profiles, the parser, loads later).
import { apiKeySlot, SECRETS } from '../../contracts/persistedState/platform';

/** The id of the profile made of the pre-profile settings and key. */
export const DEFAULT_PROFILE_ID = 'default';

/** The secret-storage slot of the Default profile's key (the one key of earlier versions). */
export const LEGACY_KEY_SLOT: string = SECRETS.apiKey.key;

/** The secret-storage slot of a profile's key. */
export function keySlot(profileId: string): string {
  return apiKeySlot(profileId, profileId === DEFAULT_PROFILE_ID);
}

/**
 * Between a profile's id and a model's id where one id must name both (VS Code's model picker,
 * the keys of `gatewayStudio.models.overrides`): `relay|gpt-4o`. Profile ids cannot hold it, and
 * a Default model whose own id holds it is not offered under that id (./profileModels), so no
 * gateway's model id can be taken for another profile's. Not `/`: gateways name models
 * `openai/gpt-4o`, and a profile called `openai` once took those (issue 35 item 7).
 */
export const PROFILE_MODEL_MARK = '|';
