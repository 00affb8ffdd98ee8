// The ids VS Code's model picker gets for the models of several gateway profiles (issue 22),
// apart from ./profiles so that they load with the language-model provider, not at activation.
import { DEFAULT_PROFILE_ID, type Profile } from './profiles';

/**
 * The namespaced model id VS Code's model picker gets for a model of a profile: unchanged for
 * Default (ids users and other extensions already refer to stay stable), `profileId/model` else.
 */
export function profileModelId(profileId: string, model: string): string {
  return profileId === DEFAULT_PROFILE_ID ? model : `${profileId}/${model}`;
}

/** The inverse of {@link profileModelId} for the ids of `profiles`. */
export function splitProfileModelId(
  id: string,
  profiles: readonly Pick<Profile, 'id'>[],
): { profile: string; model: string } {
  const slash = id.indexOf('/');
  if (slash > 0) {
    const p = id.slice(0, slash);
    if (p !== DEFAULT_PROFILE_ID && profiles.some((x) => x.id === p)) return { profile: p, model: id.slice(slash + 1) };
  }
  return { profile: DEFAULT_PROFILE_ID, model: id };
}
