// Gateway profiles (issue 22): several gateways, each with its own address, key and headers.
// The "Default" profile is today's settings (`gatewayStudio.baseUrl`, `videoBaseUrl`, the chat
// and video models) and today's key: nothing moves, so the old settings keep working and nothing
// is lost. Further profiles come from `gatewayStudio.profiles`, read from the user's own settings
// only (the caller passes the global value): a workspace can neither add a profile nor change
// where a profile's key goes. Keys stay in secret storage, one slot per profile.
import * as l10n from '@vscode/l10n';
import { readHeaders } from './headerRules';
import { DEFAULT_PROFILE_ID } from './profileIds';

export { DEFAULT_PROFILE_ID, LEGACY_KEY_SLOT, keySlot } from './profileIds';

export interface Profile {
  /** Stable id: conversations, video tasks and key slots refer to it. */
  id: string;
  name: string;
  /** Empty for Default: its address comes through the workspace-origin gate instead. */
  baseUrl: string;
  /** Empty: the chat base URL serves video too. */
  videoBaseUrl: string;
  headers: Record<string, string>;
  /** Empty: the global `gatewayStudio.chatModel` / `video.model`. */
  chatModel: string;
  videoModel: string;
  /** Why the profile cannot be used (a bad URL, refused headers); it is listed but never sent. */
  problems: string[];
}

/** What {@link readProfiles} found: the profiles (Default first) and every problem, named. */
export interface ProfileList {
  profiles: Profile[];
  problems: string[];
}

const ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const SETTING = 'gatewayStudio.profiles';

function text(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

/** An id from a name, for entries written without one ("Work relay" -> "work-relay"). */
export function idFromName(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return slug || 'profile';
}

/** A base URL problem in words, or undefined (the full normalisation happens in the client). */
export function urlProblem(url: string, label: string, field: string): string | undefined {
  if (url === '') return l10n.t('Profile "{0}": {1} is not set.', label, field);
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`);
  } catch {
    return l10n.t('Profile "{0}": {1} "{2}" is not a web address.', label, field, url);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    return l10n.t('Profile "{0}": {1} "{2}" must start with https:// or http://.', label, field, url);
  if (u.username || u.password)
    return l10n.t('Profile "{0}": {1} must not contain a user name or password.', label, field);
  return undefined;
}

/**
 * The profiles: Default (from `defaults`, today's settings) first, then each valid entry of the
 * user's `gatewayStudio.profiles`. An entry with id "default" only names Default and gives it
 * headers. Duplicate ids and malformed entries are reported and skipped; nothing is guessed.
 */
export function readProfiles(userValue: unknown, defaults: { chatModel: string; videoModel: string }): ProfileList {
  const problems: string[] = [];
  const def: Profile = {
    id: DEFAULT_PROFILE_ID,
    name: l10n.t('Default'),
    baseUrl: '',
    videoBaseUrl: '',
    headers: {},
    chatModel: defaults.chatModel,
    videoModel: defaults.videoModel,
    problems: [],
  };
  const profiles: Profile[] = [def];
  if (userValue === undefined || userValue === null) return { profiles, problems };
  if (!Array.isArray(userValue)) {
    problems.push(l10n.t('{0} must be a list of profiles; it was ignored.', SETTING));
    return { profiles, problems };
  }
  const seen = new Set<string>([DEFAULT_PROFILE_ID]);
  userValue.forEach((raw: unknown, i) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push(l10n.t('{0}[{1}] is not an object; it was ignored.', SETTING, i));
      return;
    }
    const e = raw as Record<string, unknown>;
    const name = text(e.name);
    const id = text(e.id).toLowerCase() || (name ? idFromName(name) : '');
    const label = name || id || `${SETTING}[${i}]`;
    if (id === DEFAULT_PROFILE_ID) {
      if (name) def.name = name;
      const h = readHeaders(e.headers, l10n.t('Profile "{0}"', def.name));
      def.headers = h.headers;
      def.problems.push(...h.problems);
      problems.push(...h.problems);
      return;
    }
    if (!ID.test(id)) {
      problems.push(
        l10n.t('{0}[{1}]: the id "{2}" must be 1-40 lower-case letters, digits, "-" or "_".', SETTING, i, id),
      );
      return;
    }
    if (seen.has(id)) {
      problems.push(l10n.t('{0}[{1}]: the id "{2}" is used twice; the later one was ignored.', SETTING, i, id));
      return;
    }
    seen.add(id);
    const h = readHeaders(e.headers, l10n.t('Profile "{0}"', label));
    const p: Profile = {
      id,
      name: name || id,
      baseUrl: text(e.baseUrl),
      videoBaseUrl: text(e.videoBaseUrl),
      headers: h.headers,
      chatModel: text(e.chatModel) || defaults.chatModel,
      videoModel: text(e.videoModel) || defaults.videoModel,
      problems: [...h.problems],
    };
    const bad = urlProblem(p.baseUrl, label, 'baseUrl');
    if (bad) p.problems.push(bad);
    const badVideo = p.videoBaseUrl ? urlProblem(p.videoBaseUrl, label, 'videoBaseUrl') : undefined;
    if (badVideo) p.problems.push(badVideo);
    problems.push(...p.problems);
    profiles.push(p);
  });
  return { profiles, problems };
}

/** The id `wanted` when it names a profile, else Default (for the *active* choice only). */
export function activeOrDefault(list: readonly Profile[], wanted: string | undefined): Profile {
  return list.find((p) => p.id === wanted) ?? list[0]!;
}
