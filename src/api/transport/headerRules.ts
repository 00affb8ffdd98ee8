// What a user may write as extra headers (./headers sends them): checked when a profile or a
// model override is read, each refusal with its reason. Loaded after activation, with the parser.
import * as l10n from '@vscode/l10n';
import { API_KEY_PLACEHOLDER, RESERVED, TOKEN, type HeaderMap } from './headers';
import { DEFAULT_PROFILE_ID, PROFILE_MODEL_MARK } from './profileIds';

/** Why a header is refused (`where` names the setting or profile), or undefined when it is fine. */
export function headerProblem(name: string, value: unknown, where: string): string | undefined {
  if (!TOKEN.test(name)) return l10n.t('{0}: "{1}" is not a valid header name.', where, name);
  if (RESERVED.has(name.toLowerCase()))
    return l10n.t(
      '{0}: the header "{1}" is refused: the key goes in Authorization and the body type in Content-Type, which Gateway Studio sets itself. Use another header name; a value may contain ${apiKey}.',
      where,
      name,
    );
  if (typeof value !== 'string') return l10n.t('{0}: the value of the header "{1}" must be text.', where, name);
  // Header values are visible ASCII and spaces; a line break would start another header.
  if (!/^[\x20-\x7e]*$/.test(value))
    return l10n.t(
      '{0}: the value of the header "{1}" contains a line break or a character that is not plain ASCII.',
      where,
      name,
    );
  return undefined;
}

/**
 * The valid headers of `raw` (an object of name -> text) and why each other one was refused.
 * A non-object is one problem, not a crash.
 */
export function readHeaders(raw: unknown, where: string): { headers: Record<string, string>; problems: string[] } {
  const headers: Record<string, string> = {};
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { headers, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(l10n.t('{0}: "headers" must be an object of header names and values.', where));
    return { headers, problems };
  }
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const p = headerProblem(name, value, where);
    if (p) problems.push(p);
    else headers[name] = value as string;
  }
  return { headers, problems };
}

/** Whether a header map uses the key (and so must only ever go where the key goes). */
export function carriesKey(headers: HeaderMap): boolean {
  return Object.values(headers).some((v) => v.includes(API_KEY_PLACEHOLDER));
}

/**
 * The per-model `headers` of `gatewayStudio.models.overrides` (`raw`, the user's value) that go to
 * the gateway of profile `profileId`, by the model id sent on the wire. An entry is for the
 * profile its key names, as VS Code's picker writes the model: `gpt-4o` for Default,
 * `relay|gpt-4o` for the profile `relay` (../profileIds). A header written for one gateway's model
 * (a token, `${apiKey}`) never goes to another gateway that serves a model of the same name.
 */
export function readModelHeaders(
  raw: unknown,
  profileId: string,
): { headers: Record<string, HeaderMap>; problems: string[] } {
  const headers: Record<string, HeaderMap> = {};
  const problems: string[] = [];
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { headers, problems };
  for (const [key, v] of Object.entries(raw as Record<string, unknown>)) {
    if (!v || typeof v !== 'object' || !('headers' in v)) continue;
    const mark = key.indexOf(PROFILE_MODEL_MARK);
    const owner = mark < 0 ? DEFAULT_PROFILE_ID : key.slice(0, mark);
    if (owner !== profileId) continue;
    const h = readHeaders((v as { headers: unknown }).headers, `gatewayStudio.models.overrides["${key}"]`);
    problems.push(...h.problems);
    if (Object.keys(h.headers).length) headers[mark < 0 ? key : key.slice(mark + 1)] = h.headers;
  }
  return { headers, problems };
}
