/** Which links the chat opens outside VS Code, decided without VS Code so it can be tested alone. */
import { isPrivateHost } from '../../../api/transport/addresses';

export type LinkVerdict = { ok: true } | { ok: false; reason: 'invalid' | 'scheme' | 'userInfo'; scheme?: string };

const OPENABLE_SCHEMES = ['http', 'https', 'mailto'];

/**
 * A link from a model's answer may be opened only if it is http(s) or mailto, and a web link only
 * without user info: `https://github.com@evil.example` reads as github.com but goes to evil.example.
 */
export function checkChatLink(href: string): LinkVerdict {
  const trimmed = href.trim();
  const schemeMatch = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(trimmed);
  if (!schemeMatch) return { ok: false, reason: 'invalid' };
  const scheme = (schemeMatch[1] ?? '').toLowerCase();
  if (!OPENABLE_SCHEMES.includes(scheme)) return { ok: false, reason: 'scheme', scheme };
  if (scheme === 'mailto') return { ok: true };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'userInfo' };
  // URL drops an empty user info ("https://@host"); the raw authority still had an '@'.
  const afterScheme = trimmed.slice(schemeMatch[0].length).replace(/^[\\/]*/, '');
  const authority = afterScheme.split(/[/?#\\]/, 1)[0] ?? '';
  if (authority.includes('@')) return { ok: false, reason: 'userInfo' };
  if (url.hostname === '') return { ok: false, reason: 'invalid' };
  return { ok: true };
}

/**
 * Why the chat asks before opening an allowed link itself: VS Code's trusted-domain prompt skips
 * `mailto:` (it starts the mail program with the address, subject and body the answer chose) and
 * localhost (a dev server, a router's admin page, which act on a GET). Undefined for a link VS Code
 * already asks about.
 */
export function askBeforeOpening(href: string): 'mail' | 'local' | undefined {
  const trimmed = href.trim();
  if (/^mailto:/i.test(trimmed)) return 'mail';
  try {
    return isPrivateHost(new URL(trimmed).hostname) ? 'local' : undefined;
  } catch {
    return undefined;
  }
}
