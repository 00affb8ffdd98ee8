// The resolved-address rule of the security issue, for pages the model asks for: only http(s), and
// nothing in the user's own machine or network (loopback, private, link-local, metadata services)
// unless the user named that host in their own settings (`gatewayStudio.web.allowPrivateHosts`).
// The name is judged as written and again by every address it resolves to, at connect time, on
// the addresses the socket then uses (no second lookup a rebinding DNS could answer differently).
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isPrivateHost, isSpecialAddress } from '../../../api/transport/addresses';
import { systemResolve, type Resolve } from '../../../api/transport/pinnedLookup';

export { systemResolve, type Resolve };

/** A fetch the rules refuse: the model reads the message as the tool's answer. */
export class WebRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebRefusal';
  }
}

/** A host as compared: lower case, no brackets, no final dot. */
export function hostKey(hostname: string): string {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/** The user's allowed private hosts from the setting's value, and what in it was not a host name. */
export function readAllowedHosts(raw: unknown): { hosts: Set<string>; problems: string[] } {
  const hosts = new Set<string>();
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { hosts, problems };
  if (!Array.isArray(raw)) return { hosts, problems: ['must be a list of host names, such as ["127.0.0.1"]'] };
  for (const v of raw) {
    const ok = typeof v === 'string' && /^[\w.:[\]-]{1,253}$/.test(v.trim()) && !v.includes('/');
    if (ok) hosts.add(hostKey(v.trim()));
    else problems.push(`${JSON.stringify(v)} is not a host name (write the host alone: "intranet.local", "127.0.0.1")`);
  }
  return { hosts, problems };
}

/**
 * Refuses a URL the tool may not fetch, before any connection: another scheme than http(s)
 * (`file:`, `data:`, `ftp:`), a user name or password in it, or a host in the user's network
 * written as such (`localhost`, `127.0.0.1`, `[::1]`, `169.254.169.254`) that the user did not
 * allow. A name is checked again by what it resolves to ({@link webLookup}).
 */
export function checkTarget(url: URL, allowed: ReadonlySet<string>): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebRefusal(
      `Refused: ${url.protocol} URLs are not fetched; fetch_url reads http and https pages only (not files, data or other schemes).`,
    );
  if (url.username || url.password)
    throw new WebRefusal('Refused: URLs with a user name or password in them are not fetched.');
  const host = hostKey(url.hostname);
  if (isPrivateHost(host) && !allowed.has(host))
    throw new WebRefusal(
      `Refused: ${url.host} is an address in the user's own machine or network. fetch_url reaches only public addresses unless the user adds this host to the setting gatewayStudio.web.allowPrivateHosts.`,
    );
}

/** The refusal of a name that resolved into the user's network. */
export function resolvedPrivate(hostname: string, address: string): WebRefusal {
  return new WebRefusal(
    `Refused: ${hostname} resolves to ${address}, an address in the user's own machine or network. fetch_url reaches only public addresses unless the user adds this host to the setting gatewayStudio.web.allowPrivateHosts.`,
  );
}

/**
 * A `lookup` for `http.request`: the socket connects only to the addresses `resolve` returned,
 * and unless `allowPrivate`, one special address among them refuses the name.
 */
export function webLookup(resolve: Resolve, allowPrivate: boolean): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    const done = callback as (err: Error | null, address?: string | LookupAddress[], family?: number) => void;
    resolve(hostname).then(
      (all) => {
        const bad = allowPrivate ? undefined : all.find((a) => isSpecialAddress(a.address) !== false);
        if (bad) return done(resolvedPrivate(hostname, bad.address));
        const usable =
          options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        const first = usable[0];
        if (!first) return done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
        if (options.all) done(null, usable);
        else done(null, first.address, first.family);
      },
      (err: Error) => done(err),
    );
  };
}
