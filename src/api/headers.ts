// Extra request headers a profile or a model asks for (relays behind Cloudflare Access, a tenant
// header, a second token). They travel like the key: only to the gateway's own origin, and a
// value may name the key as `${apiKey}`. Authorization and Content-Type stay the client's.
import * as l10n from '@vscode/l10n';

/** Extra headers by name, as the user wrote them (`${apiKey}` not yet replaced). */
export type HeaderMap = Readonly<Record<string, string>>;

/** The placeholder a header value may contain for the profile's key. */
export const API_KEY_PLACEHOLDER = '${apiKey}';

/** Headers the client sets itself; overriding them would break auth or the body's parsing. */
const RESERVED = new Set(['authorization', 'content-type']);

/** A header name: an RFC 9110 token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

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
 * The headers to send: `${apiKey}` replaced by the key (by nothing when there is none), reserved
 * names dropped again in case a caller skipped {@link readHeaders}. Later maps win per name,
 * compared without case.
 */
export function expandHeaders(apiKey: string | undefined, ...maps: (HeaderMap | undefined)[]): Record<string, string> {
  const byLower = new Map<string, [string, string]>();
  for (const m of maps) {
    for (const [name, value] of Object.entries(m ?? {})) {
      if (RESERVED.has(name.toLowerCase()) || !TOKEN.test(name)) continue;
      byLower.set(name.toLowerCase(), [name, value.split(API_KEY_PLACEHOLDER).join(apiKey ?? '')]);
    }
  }
  return Object.fromEntries(byLower.values());
}

/** The text values of `headers` that are secrets to mask in logs (the expanded ones, whole). */
export function headerSecrets(headers: HeaderMap): string[] {
  return Object.values(headers).filter((v) => v.length >= 8);
}
