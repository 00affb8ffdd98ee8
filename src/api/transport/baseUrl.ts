import * as l10n from '@vscode/l10n';
import { GatewayError } from './errors';

/** Endpoint suffixes people paste by mistake (spec 4.7: the base URL stops at /v1). */
const ENDPOINT_SUFFIXES = [
  '/chat/completions',
  '/completions',
  '/models',
  '/videos/generations',
  '/video/generations',
  '/videos',
  '/embeddings',
];

/**
 * True for hosts whose traffic never leaves the machine, where plain http is fine. Not
 * `*.localhost`: outside systemd-resolved, such a name goes to the DNS server, which may answer any
 * address, and the key would cross the network in clear text.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/**
 * Normalises a user-typed base URL to the `/v1` root (spec 4.7): trims whitespace, accepts a bare
 * host, a host with or without `/v1`, a trailing slash, or a full `/chat/completions` URL pasted by
 * mistake. Throws `GatewayError('config')` for an empty value, a non-http(s) scheme, credentials in
 * the URL, an unparsable address, or plain `http://` to a non-loopback host unless
 * `allowInsecureHttp` (the user's own opt-in). Warnings say what was changed or is risky.
 */
export function normaliseBaseUrl(
  input: string,
  settingName = 'gatewayStudio.baseUrl',
  allowInsecureHttp = false,
): { url: string; warnings: string[] } {
  const warnings: string[] = [];
  const raw = (input ?? '').trim();
  if (raw === '') {
    throw new GatewayError(
      'config',
      l10n.t(
        'The base URL is not set ({0}). Enter the gateway address, for example https://gateway.example.com/v1.',
        settingName,
      ),
      { field: settingName },
    );
  }
  const text = withScheme(raw, settingName, warnings);
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new GatewayError('config', l10n.t('The base URL "{0}" is not a valid address.', raw), { field: settingName });
  }
  if (!u.hostname)
    throw new GatewayError('config', l10n.t('The base URL "{0}" has no host name.', raw), { field: settingName });
  if (u.username || u.password) {
    throw new GatewayError(
      'config',
      l10n.t('The base URL must not contain a user name or password; the API key is set with "Set API Key".'),
      { field: settingName },
    );
  }
  if (u.search || u.hash) {
    warnings.push(l10n.t('The query string or fragment of the base URL was dropped.'));
  }
  const path = v1Path(u.pathname, warnings);
  checkPlainHttp(u, settingName, allowInsecureHttp, warnings);
  return { url: `${u.protocol}//${u.host}${path}`, warnings };
}

/** `raw` with a scheme: a missing one is assumed (http:// for loopback, else https://); others than http(s) are refused. */
function withScheme(raw: string, settingName: string, warnings: string[]): string {
  const text = raw;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text);
  if (!scheme) {
    if (/^[A-Za-z][A-Za-z0-9+.-]*:(?!\d)/.test(text)) {
      throw new GatewayError('config', l10n.t('The base URL "{0}" must start with https:// or http://.', raw), {
        field: settingName,
      });
    }
    const host = text.split(/[/:?#]/, 1)[0] ?? '';
    const assumed = isLoopbackHost(host) ? 'http://' : 'https://';
    warnings.push(l10n.t('The base URL had no scheme; {0} was assumed.', assumed));
    return assumed + text;
  } else if (!/^https?$/i.test(scheme[1] ?? '')) {
    throw new GatewayError(
      'config',
      l10n.t('The base URL "{0}" uses {1}://; only https:// and http:// are supported.', raw, scheme[1] ?? ''),
      { field: settingName },
    );
  }
  return text;
}

/** The path cut at `/v1` (a pasted endpoint and anything after /v1 removed), or `/v1` added. */
function v1Path(pathname: string, warnings: string[]): string {
  let path = pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  for (const suffix of ENDPOINT_SUFFIXES) {
    if (path.toLowerCase().endsWith(suffix)) {
      path = path.slice(0, -suffix.length);
      warnings.push(
        l10n.t('The base URL included the endpoint {0}; it must stop at /v1, so that part was removed.', suffix),
      );
      break;
    }
  }
  const v1 = path.toLowerCase().lastIndexOf('/v1');
  if (v1 >= 0 && (path.length === v1 + 3 || path[v1 + 3] === '/')) {
    if (path.length !== v1 + 3) warnings.push(l10n.t('Everything after /v1 in the base URL was removed.'));
    path = path.slice(0, v1) + '/v1';
  } else {
    path += '/v1';
  }
  return path;
}

/** Plain http:// to another machine carries the key unencrypted: refused unless the user allowed it. */
function checkPlainHttp(u: URL, settingName: string, allowInsecureHttp: boolean, warnings: string[]): void {
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
    // Anyone on the path would read the key; a warning in a log nobody opens protects no one.
    if (!allowInsecureHttp) {
      throw new GatewayError(
        'config',
        l10n.t(
          'The base URL uses http:// to {0}: the API key would travel unencrypted, so it was not sent. Use https://, or allow plain http in your user settings (gatewayStudio.network.allowInsecureHttp).',
          u.hostname,
        ),
        { field: settingName },
      );
    }
    warnings.push(
      l10n.t('The base URL uses http:// to {0}: the API key would travel unencrypted. Use https://.', u.hostname),
    );
  }
}

/**
 * Resolves a server-given URL against a `/v1` base: absolute http(s) URLs are kept, a path starting
 * with `/v1/` is taken from the host root (spec 2.6: prefixed with the video base URL), other paths
 * are appended to the `/v1` base.
 */
export function resolveAgainstBase(baseV1: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  const root = baseV1.replace(/\/v1$/, '');
  if (/^\/v1(\/|$)/.test(pathOrUrl)) return root + pathOrUrl;
  return baseV1 + (pathOrUrl.startsWith('/') ? pathOrUrl : '/' + pathOrUrl);
}
