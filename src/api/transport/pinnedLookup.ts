// The connect-time half of "a server-given URL may not lead into the user's network": a `lookup`
// for node's http(s) request that resolves the name once, refuses it when any address it got is
// special (./addresses), and hands exactly those addresses to the socket. There is no second
// lookup between the check and the connection, so a name that answers a public address to a check
// and 127.0.0.1 to the connect (DNS rebinding) cannot slip through. When VS Code sends the request
// through a proxy, the proxy resolves the name and this lookup is never called.
import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import * as l10n from '@vscode/l10n';
import { isSpecialAddress } from './addresses';
import { GatewayError } from './errors';

/** Every address a name resolves to; a test seam (the system resolver by default). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver, as node's own connect would ask it (getaddrinfo, hosts file included). */
export const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** The refusal of a name that resolved into the user's network. */
export function resolvedPrivate(hostname: string, address: string): GatewayError {
  return new GatewayError(
    'invalid_response',
    l10n.t(
      'The gateway pointed to {0}, which resolves to {1}, an address in your own network or machine; Gateway Studio does not fetch it.',
      hostname,
      address,
    ),
  );
}

/**
 * A `lookup` for `http.request`: the socket connects to exactly the addresses `resolve` returned.
 * Unless `allowPrivate` (the gateway's own host, or any host when the gateway is itself local),
 * every one of them must be public: one special address refuses the name (a name that answers both
 * public and private addresses is not trusted with either).
 */
export function pinnedLookup(resolve: Resolve, allowPrivate: boolean): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    const done = callback as (
      err: NodeJS.ErrnoException | null,
      address?: string | LookupAddress[],
      family?: number,
    ) => void;
    resolve(hostname).then(
      (all) => {
        const bad = allowPrivate ? undefined : all.find((a) => isSpecialAddress(a.address) !== false);
        if (bad) return done(resolvedPrivate(hostname, bad.address) as unknown as NodeJS.ErrnoException);
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family ? all.filter((a) => a.family === family) : all;
        const first = usable[0];
        if (!first) {
          const e: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          e.code = 'ENOTFOUND';
          return done(e);
        }
        if (options.all) done(null, usable);
        else done(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => done(err),
    );
  };
}
