// Edits of the user's `gatewayStudio.profiles` value. Whatever else the user wrote in an entry
// (fields a later version reads, comments aside) is kept: an edit touches only its own entry.
import { DEFAULT_PROFILE_ID, idFromName, urlProblem } from '../../../api/transport/profiles';

/** What Add Gateway Profile asks for. */
export interface NewProfile {
  name: string;
  baseUrl: string;
}

function entries(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function idOf(e: unknown): string {
  if (!e || typeof e !== 'object') return '';
  const o = e as { id?: unknown; name?: unknown };
  if (typeof o.id === 'string' && o.id.trim()) return o.id.trim().toLowerCase();
  return typeof o.name === 'string' && o.name.trim() ? idFromName(o.name.trim()) : '';
}

/** An id for `name` that no entry (nor Default) uses yet: "work", "work-2"… */
export function freeId(value: unknown, name: string): string {
  const taken = new Set([DEFAULT_PROFILE_ID, ...entries(value).map(idOf)]);
  const base = idFromName(name).slice(0, 36);
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/** Why the new profile's input is refused, or undefined. */
export function newProfileProblem(p: NewProfile): string | undefined {
  if (p.name.trim() === '') return 'name';
  return urlProblem(p.baseUrl.trim(), p.name.trim(), 'baseUrl');
}

/** The setting's value with the new profile appended, and its id. */
export function addProfile(value: unknown, p: NewProfile): { value: unknown[]; id: string } {
  const id = freeId(value, p.name);
  return { value: [...entries(value), { id, name: p.name.trim(), baseUrl: p.baseUrl.trim() }], id };
}

/** The setting's value without the profile `id` (Default cannot be removed: it is the old settings). */
export function removeProfile(value: unknown, id: string): unknown[] {
  if (id === DEFAULT_PROFILE_ID) throw new Error('the Default profile cannot be removed');
  return entries(value).filter((e) => idOf(e) !== id);
}
