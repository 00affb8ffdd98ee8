// Why a connection could not be made, in the words the network error gives (Node's fetch hides
// the real cause inside "fetch failed") and, when VS Code sends the request through a proxy,
// naming the proxy: the gateway is then not the one to blame.
import * as l10n from '@vscode/l10n';
import { GatewayError } from './errors';

/** Node's fetch reports connection failures as `TypeError: fetch failed` with the real cause inside. */
export function describeNetworkError(err: unknown): string {
  const parts: string[] = [];
  let cur: unknown = err;
  for (let i = 0; i < 4 && cur instanceof Error; i++) {
    const code = (cur as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${cur.message} (${code})` : cur.message);
    cur = cur.cause;
  }
  return parts.join(': ') || String(err);
}

/**
 * Whether VS Code's proxy support sends a request for `host` through the proxy: not loopback
 * names, and not a host `http.noProxy` lists (exactly, or as a parent domain).
 */
function viaProxy(host: string, noProxy: readonly string[]): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '127.0.0.1' || h === '::1') return false;
  return !noProxy.some((n) => {
    const d = n
      .trim()
      .toLowerCase()
      .replace(/^\*?\./, '');
    return d !== '' && (h === d || h.endsWith(`.${d}`));
  });
}

/** A connection failure through the proxy, naming it (without any user or password in its URL). */
function proxyFailure(host: string, proxy: string, why: string): string {
  let shown = proxy;
  try {
    const u = new URL(proxy);
    shown = u.host;
  } catch {
    // not a URL: shown as set
  }
  if (/\b407\b/.test(why))
    return l10n.t(
      'The proxy {0} (http.proxy) refused to connect to {1}: it requires authentication (407 Proxy Authentication Required). Put the user name and password in http.proxy (http://user:password@host:port). {2}',
      shown,
      host,
      why,
    );
  return l10n.t('Could not connect to {0} through the proxy {1} (http.proxy): {2}', host, shown, why);
}

/** The message of a failed connection to `url`, naming the proxy when the request went through it. */
export function connectFailure(
  url: string,
  err: unknown,
  proxy: string | undefined,
  noProxy: readonly string[],
): string {
  const { host, hostname } = new URL(url);
  return proxy && viaProxy(hostname, noProxy)
    ? proxyFailure(host, proxy, describeNetworkError(err))
    : l10n.t('Could not connect to {0}: {1}', host, describeNetworkError(err));
}

/**
 * The error of a request that got no answer: its deadline passed (`timeoutMs` given), or the
 * connection failed (worded by {@link connectFailure}). Both are worth a retry.
 */
export function noAnswer(
  err: unknown,
  r: { method: string; url: string; path: string; timeoutMs?: number; proxy?: string; noProxy?: readonly string[] },
): GatewayError {
  const { method, path } = r;
  if (r.timeoutMs !== undefined)
    return new GatewayError(
      'timeout',
      l10n.t('No answer from {0} {1} within {2} s.', method, path, Math.round(r.timeoutMs / 1000)),
      { retryable: true, method, path },
    );
  return new GatewayError('network', connectFailure(r.url, err, r.proxy, r.noProxy ?? []), {
    retryable: true,
    method,
    path,
    cause: err,
  });
}
