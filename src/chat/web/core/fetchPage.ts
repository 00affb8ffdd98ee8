// One page for fetch_url: a GET over node:http(s) (the module objects VS Code patches for the
// user's proxy, as src/api/transport/wireGet.ts explains), with the address rule on every hop, a
// size and a time limit, and redirects followed only within the same host: a page that sends the
// tool to another host gets that host named back to the model, which must ask for it by itself,
// through the same checks and the same per-domain approval.
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { checkTarget, hostKey, webLookup, WebRefusal, type Resolve } from './addressRule';

export interface FetchLimits {
  /** Bytes of body read at most; the rest is not downloaded (default 5 MB). */
  maxBytes: number;
  /** From the first connection to the last byte, redirects included (default 30 s). */
  timeoutMs: number;
  /** Same-host redirects followed at most (default 5). */
  maxRedirects: number;
}

export const DEFAULT_LIMITS: FetchLimits = { maxBytes: 5 * 1024 * 1024, timeoutMs: 30_000, maxRedirects: 5 };

/** A body as far as it was read, and why it stopped early if it did. */
export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** The size the server declared (Content-Length), when it did. */
  declaredBytes?: number;
  /** Why the body is not whole: the size limit, the time limit, or the server closed mid-way. */
  cut?: 'size' | 'time' | 'closed';
}

export type FetchOutcome =
  | { kind: 'page'; page: FetchedPage }
  /** A redirect to another host: not followed. */
  | { kind: 'elsewhere'; from: string; to: string; status: number };

export interface FetchOptions {
  /** Hosts in the user's network the user allowed (their own settings only). */
  allowed: ReadonlySet<string>;
  resolve: Resolve;
  limits: FetchLimits;
  signal: AbortSignal;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Fetches `start`, following same-host redirects, each hop checked by the address rule. */
export async function fetchPage(start: URL, o: FetchOptions): Promise<FetchOutcome> {
  const deadline = Date.now() + o.limits.timeoutMs;
  let url = start;
  for (let hop = 0; ; hop++) {
    checkTarget(url, o.allowed);
    const page = await getOnce(url, o, deadline);
    if (!REDIRECTS.has(page.status)) return { kind: 'page', page };
    const location = page.location;
    let next: URL;
    try {
      next = new URL(location ?? '', url);
    } catch {
      throw new WebRefusal(`The page answered ${page.status} with a redirect to an unusable address (${location}).`);
    }
    if (location === undefined) throw new WebRefusal(`The page answered ${page.status} without saying where to.`);
    // Refused with its reason first (a file: URL, a private address), wherever it points.
    checkTarget(next, o.allowed);
    if (hostKey(next.hostname) !== hostKey(start.hostname) || next.port !== start.port)
      return { kind: 'elsewhere', from: url.toString(), to: next.toString(), status: page.status };
    if (hop >= o.limits.maxRedirects)
      throw new WebRefusal(`Stopped after ${o.limits.maxRedirects} redirects within ${start.host}.`);
    url = next;
  }
}

/** One GET: the body up to the limits (a redirect's body is not read). */
function getOnce(url: URL, o: FetchOptions, deadline: number): Promise<FetchedPage & { location?: string }> {
  const host = hostKey(url.hostname);
  const lookup = webLookup(o.resolve, o.allowed.has(host));
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    /** Ends the body read so far, once headers are in: the deadline then cuts rather than fails. */
    let cutBody: ((cut: 'time') => void) | undefined;
    const req = mod.request(url, {
      method: 'GET',
      lookup,
      headers: {
        'User-Agent': 'GatewayStudio-fetch_url/1 (+https://github.com/)',
        Accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
        'Accept-Encoding': 'identity',
        // No socket kept for the next call: a pooled one would skip the lookup, and with it the
        // address rule, whatever the user's setting says by then.
        Connection: 'close',
      },
    });
    const finish = (err: Error | undefined, page?: FetchedPage & { location?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve(page!);
    };
    const onAbort = () => {
      req.destroy();
      finish(new WebRefusal('Stopped.'));
    };
    const timer = setTimeout(
      () => {
        if (cutBody) cutBody('time');
        else {
          req.destroy();
          finish(new WebRefusal(`${url.host} did not answer within ${Math.round(o.limits.timeoutMs / 1000)} s.`));
        }
      },
      Math.max(0, deadline - Date.now()),
    );
    o.signal.addEventListener('abort', onAbort, { once: true });
    if (o.signal.aborted) onAbort();
    req.on('error', (e) =>
      finish(e instanceof WebRefusal ? e : new WebRefusal(`${url.host} could not be reached: ${e.message}`)),
    );
    req.on('response', (r) => {
      cutBody = readBody(r, url, o.limits.maxBytes, finish);
    });
    req.end();
  });
}

/** Reads a response into a page up to the size limit; returns what ends it early (the deadline). */
function readBody(
  r: IncomingMessage,
  url: URL,
  maxBytes: number,
  finish: (err: Error | undefined, page?: FetchedPage & { location?: string }) => void,
): (cut: 'time') => void {
  const status = r.statusCode ?? 0;
  const declared = Number(r.headers['content-length']);
  const base = {
    url: url.toString(),
    status,
    contentType: String(r.headers['content-type'] ?? ''),
    ...(Number.isFinite(declared) && declared >= 0 ? { declaredBytes: declared } : {}),
  };
  if (REDIRECTS.has(status)) {
    r.destroy();
    const location = r.headers.location;
    finish(undefined, { ...base, body: Buffer.alloc(0), ...(location !== undefined ? { location } : {}) });
    return () => undefined;
  }
  const parts: Buffer[] = [];
  let n = 0;
  let ended = false;
  const done = (cut?: FetchedPage['cut']) => {
    if (ended) return;
    // Before the destroy: it fires 'aborted' and 'error', which must not rename the cause.
    ended = true;
    finish(undefined, { ...base, body: Buffer.concat(parts).subarray(0, maxBytes), ...(cut ? { cut } : {}) });
    r.destroy();
  };
  r.on('data', (c: Buffer) => {
    parts.push(c);
    n += c.length;
    if (n >= maxBytes) done(base.declaredBytes === n ? undefined : 'size');
  });
  r.on('end', () => done());
  r.on('aborted', () => done('closed'));
  r.on('error', () => done('closed'));
  return done;
}
