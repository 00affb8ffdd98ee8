// Large downloads over node:http / node:https instead of the global fetch. The web stream fetch
// hands out (and `Readable.fromWeb` over it) read 130-400 MB/s on loopback however it was consumed,
// a third of curl. Proxy support stays: VS Code's extension host (src/vs/workbench/api/node/
// proxyResolver.ts, createPatchedModules) merges @vscode/proxy-agent's `createHttpPatch` into the
// `http` and `https` module objects themselves, so `request` and `get` go through `http.proxy` /
// the system proxy under `http.proxySupport` (default "override"; "on" only when the caller passes
// no agent) and skip it for localhost/127.0.0.1, like the fetch. Hence: the default import (the
// mutated module object, read at call time, not an ESM named binding taken before the patch) and
// never an `agent` option.
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { finished, type Writable } from 'node:stream';
import * as l10n from '@vscode/l10n';
import { describeNetworkError, noAnswer } from './connectFailure';
import { GatewayError, errorFromHttp } from './errors';
import { isRedirect, redirectTarget } from './redirects';
import { abortedError } from './retry';
import { pinnedLookup, systemResolve, type Resolve } from './pinnedLookup';

/** What a download request needs from the client that sends it (see HttpClient.download). */
export interface WireContext {
  baseUrl: string;
  /** The gateway's origin: its error bodies are quoted (redacted), another host's never. */
  origin: string;
  redact(text: string): string;
  /** The Authorization header for `url`: only ever for the gateway's own origin. */
  authorization(url: string): string | undefined;
  /** The profile's extra headers for `url` (none for another origin). */
  extraHeaders?(url: string): Record<string, string>;
  timeoutMs: number;
  log(level: 'debug' | 'info' | 'warn' | 'error', msg: string): void;
  proxy?: string;
  noProxy?: readonly string[];
  /**
   * The `lookup` for a URL (./pinnedLookup): for another host than the gateway's, it refuses a name
   * that resolves into the user's network; either way the socket connects to what it checked.
   */
  lookup?(url: string): LookupFunction;
}

/**
 * `base` with the lookup of ./pinnedLookup: another host's address is checked as resolved, unless
 * the gateway is itself local; the gateway's own name is pinned to what it resolved to.
 */
export function withLookup(
  base: Omit<WireContext, 'lookup'>,
  resolve: Resolve | undefined,
  gatewayLocal: boolean,
): WireContext {
  const own = pinnedLookup(resolve ?? systemResolve, true);
  const other = gatewayLocal ? own : pinnedLookup(resolve ?? systemResolve, false);
  return { ...base, lookup: (url) => (new URL(url).origin === base.origin ? own : other) };
}

export interface WireGetOptions {
  signal?: AbortSignal;
  accept?: string;
  /** Extra request headers (Range, If-Range); never Authorization, which is the context's. */
  headers?: Record<string, string>;
  followRedirects?: boolean;
  timeoutMs?: number;
}

/** A 2xx answer whose body is still unread. */
export interface WireResponse {
  status: number;
  headers: Headers;
  body: IncomingMessage;
  /** The URL that answered (after redirects). */
  url: string;
}

/** The longest error body read for the message; the rest is dropped. */
const ERROR_BODY_BYTES = 64 * 1024;

function headersOf(res: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined) continue;
    h.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  return h;
}

/**
 * One GET (and its redirects, each hop checked like the fetch path's: redirects.ts) through
 * node:http(s), resolving with a 2xx response once its headers are in; a non-2xx answer is the
 * spec's error. The key goes only to the gateway's origin, hop by hop.
 */
export function wireGet(
  ctx: WireContext,
  url: string,
  shownPath: string,
  o: WireGetOptions,
  hops = 0,
): Promise<WireResponse> {
  if (o.signal?.aborted) return Promise.reject(abortedError('GET', shownPath));
  const target = new URL(url);
  const headers: Record<string, string> = { ...ctx.extraHeaders?.(url), ...o.headers, Accept: o.accept ?? '*/*' };
  const auth = ctx.authorization(url);
  if (auth !== undefined) headers.Authorization = auth;
  const started = Date.now();
  const timeoutMs = o.timeoutMs ?? ctx.timeoutMs;
  return new Promise<WireResponse>((resolve, reject) => {
    let timedOut = false;
    let settled = false;
    const mod = target.protocol === 'https:' ? https : http;
    // Only a direct connection calls `lookup`; through a proxy, the proxy resolves the name.
    const lookup = ctx.lookup?.(url);
    const req = mod.request(url, lookup ? { method: 'GET', headers, lookup } : { method: 'GET', headers });
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, timeoutMs);
    const onAbort = () => req.destroy();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
    };
    req.on('error', (e) => {
      if (settled) return;
      done();
      if (o.signal?.aborted) return reject(abortedError('GET', shownPath));
      // The lookup's refusal of a private address: said as it is, and not retried.
      if (e instanceof GatewayError) return reject(e);
      const deadline = timedOut ? timeoutMs : undefined;
      reject(
        noAnswer(e, {
          method: 'GET',
          url,
          path: shownPath,
          timeoutMs: deadline,
          proxy: ctx.proxy,
          noProxy: ctx.noProxy,
        }),
      );
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const h = headersOf(res);
      ctx.log('debug', `GET ${shownPath} -> ${status} in ${Date.now() - started} ms`);
      if (status >= 200 && status < 300) {
        done();
        resolve({ status, headers: h, body: res, url });
        return;
      }
      if (isRedirect(status)) done();
      notOk(ctx, { res, status, headers: h, url, shownPath, hops }, o).then(resolve, (e: unknown) => {
        done();
        reject(e);
      });
    });
    req.end();
  });
}

/**
 * A non-2xx answer: a redirect is followed (each hop checked, redirects.ts), anything else is the
 * spec's error, quoting the body only when the gateway itself answered.
 */
async function notOk(
  ctx: WireContext,
  a: { res: IncomingMessage; status: number; headers: Headers; url: string; shownPath: string; hops: number },
  o: WireGetOptions,
): Promise<WireResponse> {
  const { res, status, headers: h, url, shownPath } = a;
  if (isRedirect(status)) {
    res.destroy();
    const next = redirectTarget({ status, headers: h }, url, ctx.baseUrl, {
      method: 'GET',
      path: shownPath,
      follow: o.followRedirects,
      hops: a.hops,
    });
    ctx.log('debug', `GET ${shownPath} -> ${status}, following to ${new URL(next).host}`);
    return wireGet(ctx, next, shownPath, o, a.hops + 1);
  }
  const text = await readSome(res, ERROR_BODY_BYTES);
  // Another host's body (a CDN's error page) is not quoted at all: it would reach the model.
  const own = new URL(url).origin === ctx.origin;
  const requestId = h.get('x-request-id') ?? h.get('request-id') ?? h.get('x-oneapi-request-id') ?? undefined;
  throw errorFromHttp(status, own ? ctx.redact(text) : '', { method: 'GET', path: shownPath, requestId, headers: h });
}

/** Up to `max` bytes of a body as text; the connection is closed after. Never rejects. */
function readSome(res: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let n = 0;
    const end = () => {
      res.destroy();
      resolve(Buffer.concat(parts).toString('utf8'));
    };
    res.on('data', (c: Buffer) => {
      parts.push(c);
      n += c.length;
      if (n >= max) end();
    });
    res.on('end', end);
    res.on('error', end);
    res.on('aborted', end);
  });
}

/**
 * Pipes a response body into `sink` under the idle watchdog: silence for `idleMs` is a `timeout`,
 * a stop through the signal `aborted`, a dropped connection `network`; the sink's own failure (a
 * full disk, not a video: its `failure`) comes through unchanged. One re-arming timer, no per-chunk promise.
 */
export async function pipeBody(
  res: WireResponse,
  sink: Writable & { readonly failure?: unknown },
  o: { idleMs: number; path: string; signal?: AbortSignal },
): Promise<void> {
  const body = res.body;
  let last = Date.now();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    timer = setTimeout(() => {
      const quiet = Date.now() - last;
      if (quiet < o.idleMs) return arm(o.idleMs - quiet);
      timedOut = true;
      body.destroy();
    }, ms);
  };
  const onData = () => {
    last = Date.now();
  };
  const onAbort = () => body.destroy();
  if (o.signal?.aborted) {
    body.destroy();
    throw abortedError('GET', o.path);
  }
  o.signal?.addEventListener('abort', onAbort, { once: true });
  body.on('data', onData);
  arm(o.idleMs);
  try {
    await pipeInto(body, sink);
  } catch (e) {
    if (o.signal?.aborted) throw abortedError('GET', o.path);
    if (timedOut)
      throw new GatewayError(
        'timeout',
        l10n.t('The gateway sent nothing for {0} s while streaming {1}.', Math.round(o.idleMs / 1000), o.path),
        { path: o.path, advice: 'raiseIdleTimeout' },
      );
    if (sink.failure !== undefined) throw sink.failure;
    throw new GatewayError(
      'network',
      l10n.t('The connection closed while receiving {0}: {1}', o.path, describeNetworkError(e)),
      { cause: e, path: o.path },
    );
  } finally {
    clearTimeout(timer);
    body.off('data', onData);
    o.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * `body.pipe(sink)` until both are done. Unlike `stream.pipeline`, a body that breaks off (a drop, the
 * idle watchdog, a stop) does not destroy the sink: it is ended, so the bytes that arrived are
 * written before the error is reported. A resume then starts after them, and "stopped after N
 * bytes" counts them; pipeline threw away up to the sink's 8 MiB buffer. A sink error ends the body.
 */
function pipeInto(body: IncomingMessage, sink: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let broken: unknown;
    let sinkDone = false;
    finished(body, (err) => {
      if (!err || sinkDone) return;
      broken = err;
      body.unpipe(sink);
      sink.end();
    });
    finished(sink, (err) => {
      sinkDone = true;
      if (err) {
        body.destroy();
        reject(err);
      } else if (broken !== undefined) reject(broken);
      else resolve();
    });
    body.pipe(sink);
  });
}
