import * as l10n from '@vscode/l10n';
import { isPrivateHost } from './addresses';
import { GatewayError } from './errors';

/**
 * Where the gateway may send us. API calls never follow a redirect: a 307 would resend the
 * conversation (the body) to another host. Only downloads follow, and each hop, like each result
 * URL, may not lead into the user's own network (a metadata service, a router, a dev server)
 * unless the gateway itself lives there.
 */

export const MAX_DOWNLOAD_REDIRECTS = 5;

/**
 * Whether the gateway itself is in the user's machine or network, judged by its address as
 * written (an IP literal or `localhost`), never by what its name resolves to: a hostile gateway
 * could answer its own name with 127.0.0.1 at the moment of the check.
 */
export function gatewayIsLocal(gatewayUrl: string): boolean {
  return isPrivateHost(new URL(gatewayUrl).hostname);
}

export function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * Refuses a server-given URL (a result URL or a redirect's target) that leads into a private
 * network the gateway is not in. `gatewayUrl` is the gateway's base URL.
 */
export function checkServerGivenUrl(target: URL, gatewayUrl: string): void {
  if (target.origin === new URL(gatewayUrl).origin) return;
  if (isPrivateHost(target.hostname) && !gatewayIsLocal(gatewayUrl)) {
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
