import * as l10n from '@vscode/l10n';
import { isLoopbackHost } from './baseUrl';
import { GatewayError } from './errors';

/**
 * Where the gateway may send us. API calls never follow a redirect: a 307 would resend the
 * conversation (the body) to another host. Only downloads follow, and each hop, like each result
 * URL, may not lead into the user's own network (a metadata service, a router, a dev server)
 * unless the gateway itself lives there.
 */

export const MAX_DOWNLOAD_REDIRECTS = 5;

export function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

function ipv4(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : undefined;
}

/**
 * True for loopback, private (RFC 1918, unique-local), link-local, carrier-grade NAT and
 * unspecified addresses, and `localhost` names. Takes a WHATWG `URL.hostname`, which has already
 * turned `0x7f000001` or `2130706433` into `127.0.0.1`. A public name that resolves to a private
 * address is not caught here (that needs the resolver).
 */
export function isPrivateHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopbackHost(h)) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  const v4 = ipv4(mapped ? (mapped[1] ?? '') : h);
  if (v4) {
    const [a = 0, b = 0] = v4;
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(h)) {
    // `::ffff:7f00:1` is how the URL parser writes `::ffff:127.0.0.1`.
    const [hi = '0', lo = '0'] = h.slice(7).split(':');
    const n = (parseInt(hi, 16) << 16) | parseInt(lo, 16);
    return isPrivateHost(`${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`);
  }
  return h === '::' || /^f[cd][0-9a-f]{0,2}:/.test(h) || /^fe[89ab][0-9a-f]?:/.test(h);
}

/**
 * Refuses a server-given URL (a result URL or a redirect's target) that leads into a private
 * network the gateway is not in. `gatewayUrl` is the gateway's base URL.
 */
export function checkServerGivenUrl(target: URL, gatewayUrl: string): void {
  const gateway = new URL(gatewayUrl);
  if (target.origin === gateway.origin) return;
  if (isPrivateHost(target.hostname) && !isPrivateHost(gateway.hostname)) {
    throw new GatewayError(
      'invalid_response',
      l10n.t(
        'The gateway pointed to {0}, an address in your own network or machine; Gateway Studio does not fetch it.',
        target.host,
      ),
    );
  }
}

/** The error for a redirect an API call does not follow. */
export function redirectRefused(method: string, path: string, status: number, location: string | null): GatewayError {
  let where = '';
  try {
    where = location ? new URL(location, 'http://x.invalid').host : '';
  } catch {
    // An unusable Location is still a redirect that is not followed.
  }
  return new GatewayError(
    'invalid_response',
    where && where !== 'x.invalid'
      ? l10n.t(
          'The gateway answered {0} {1} with a redirect ({2}) to {3}. Gateway Studio does not follow redirects of API calls, so nothing was sent there; if the gateway moved, set its new address.',
          method,
          path,
          status,
          where,
        )
      : l10n.t(
          'The gateway answered {0} {1} with a redirect ({2}). Gateway Studio does not follow redirects of API calls; if the gateway moved, set its new address.',
          method,
          path,
          status,
        ),
    { method, path, status },
  );
}

/**
 * Where a redirect response may lead: only for a request that follows redirects (a download),
 * only to http(s), at most {@link MAX_DOWNLOAD_REDIRECTS} hops, never into a private network the
 * gateway is not in. Throws the reason otherwise.
 */
export function redirectTarget(
  res: { status: number; headers: { get(name: string): string | null } },
  from: string,
  gatewayUrl: string,
  o: { method: string; path: string; follow?: boolean; hops: number },
): string {
  const location = res.headers.get('location');
  let next: URL | undefined;
  try {
    next = location === null ? undefined : new URL(location, from);
  } catch {
    next = undefined;
  }
  if (!o.follow || !next || !/^https?:$/.test(next.protocol) || o.hops >= MAX_DOWNLOAD_REDIRECTS)
    throw redirectRefused(o.method, o.path, res.status, location);
  checkServerGivenUrl(next, gatewayUrl);
  return next.toString();
}
