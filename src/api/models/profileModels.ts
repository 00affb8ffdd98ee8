// The ids VS Code's model picker gets for the models of several gateway profiles (issue 22),
// apart from ./profiles so that they load with the language-model provider, not at activation.
// The form is `profile|model` (./profileIds says why not `/`). The earlier form `profile/model`
// is not read as a profile's any more: such an id is Default's own model id, which is how the
// gateway meant it (`openai/gpt-4o` on a relay); see splitProfileModelId.
import { DEFAULT_PROFILE_ID, PROFILE_MODEL_MARK } from '../transport/profileIds';
import type { Profile } from '../transport/profiles';

/** The id that names `model` of profile `profileId`: Default's ids unchanged, others `profile|model`. */
export function profileModelId(profileId: string, model: string): string {
  return profileId === DEFAULT_PROFILE_ID ? model : `${profileId}${PROFILE_MODEL_MARK}${model}`;
}

/**
 * Whether a Default model can be offered under its own id: not when the id holds the mark, as it
 * would read as another profile's model (and route there, with that profile's key).
 */
export function offeredAsDefault(modelId: string): boolean {
  return !modelId.includes(PROFILE_MODEL_MARK);
}

/**
 * The profile and model an id of {@link profileModelId} names. An id without the mark is
 * Default's, whatever it looks like (`openai/gpt-4o` stays on Default even with a profile
 * `openai`). An id whose profile is not (or no longer) configured names no profile: undefined,
 * never Default, so a removed profile's model is not silently asked of another gateway.
 */
export function splitProfileModelId(
  id: string,
  profiles: readonly Pick<Profile, 'id'>[],
): { profile: string; model: string } | undefined {
  const mark = id.indexOf(PROFILE_MODEL_MARK);
  if (mark < 0) return { profile: DEFAULT_PROFILE_ID, model: id };
  const p = id.slice(0, mark);
  if (p === DEFAULT_PROFILE_ID || !profiles.some((x) => x.id === p)) return undefined;
  return { profile: p, model: id.slice(mark + 1) };
}
