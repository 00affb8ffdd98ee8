// Extra request headers a profile or a model asks for (relays behind Cloudflare Access, a tenant
// header, a second token). They travel like the key: only to the gateway's own origin, and a
// value may name the key as `${apiKey}`. Authorization and Content-Type stay the client's.

/** Extra headers by name, as the user wrote them (`${apiKey}` not yet replaced). */
export type HeaderMap = Readonly<Record<string, string>>;

/** The placeholder a header value may contain for the profile's key. */
export const API_KEY_PLACEHOLDER = '${apiKey}';

/** Headers the client sets itself; overriding them would break auth or the body's parsing. */
export const RESERVED = new Set(['authorization', 'content-type']);

/** A header name: an RFC 9110 token. */
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

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
