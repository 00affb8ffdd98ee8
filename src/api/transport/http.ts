// One request's life: the key, the header deadline, redirects and the retry loop around one
// attempt. The wait between retries is ./retry's, the streamed body's idle timeout ./idleBody's,
// and the words for a failed connection ./connectFailure's.
import * as l10n from '@vscode/l10n';
import type * as z from '../../shared/zod';
import { redact, rememberSecret } from '../../shared/redact';
import { normaliseBaseUrl, resolveAgainstBase } from './baseUrl';
import { GatewayError, errorFromHttp } from './errors';
import { expandHeaders, headerSecrets, type HeaderMap } from './headers';
import { noAnswer } from './connectFailure';
import { idleBody, type RequestLink } from './idleBody';
import type { Resolve } from './pinnedLookup';
import { gatewayIsLocal, isRedirect, redirectTarget } from './redirects';
import { abortedError, retryDelayMs, sleep } from './retry';
import type { WireContext, WireGetOptions, WireResponse } from './wireGet';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** How to reach the gateway. Only `baseUrl` is required. */
export interface HttpOptions {
  /** Any form the user typed; normalised with `normaliseBaseUrl`. */
  baseUrl: string;
  apiKey?: string;
  /** Defaults to the global fetch, which VS Code patches for proxies and system certificates. */
  fetch?: typeof fetch;
  /** Deadline until response headers arrive (default 60 s). */
  timeoutMs?: number;
  /** Longest silence allowed inside a streamed body, keep-alives count as traffic (default 120 s). */
  idleTimeoutMs?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  log?: (level: LogLevel, msg: string) => void;
  onRetry?: (info: { attempt: number; delayMs: number; error: GatewayError }) => void;
  /** Randomness for the backoff jitter; tests may pin it. */
  random?: () => number;
  /**
   * The HTTP proxy requests go through (VS Code's `http.proxy`; the host's fetch applies it), for
   * error messages only: a connection failure then names the proxy, not just the gateway.
   */
  proxy?: string;
  /** Hosts VS Code sends direct despite the proxy (`http.noProxy`); their errors do not name it. */
  noProxy?: readonly string[];
  /** The user's opt-in to plain `http://` to a non-loopback host (refused otherwise). */
  allowInsecureHttp?: boolean;
  /**
   * Extra headers (a profile's) for every request to the gateway's origin, `${apiKey}` replaced by
   * the key; never Authorization or Content-Type (./headers refuses them), never to another host.
   */
  headers?: HeaderMap;
  /** Extra headers per model id, added to a request whose JSON body names that model. */
  modelHeaders?: Readonly<Record<string, HeaderMap>>;
  /** How a download resolves another host's name before it is checked (tests inject one). */
  resolve?: Resolve;
  /** Longest streamed or read answer body, in bytes (`gatewayStudio.chat.maxAnswerMegabytes`). */
  maxAnswerBytes?: number;
  /** Longest video download, in bytes (`gatewayStudio.video.maxDownloadMegabytes`). */
  maxDownloadBytes?: number;
}

/** Per-request options. */
export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data instead of `body` (image edits); fetch writes the boundary. */
  form?: FormData;
  signal?: AbortSignal;
  /** false: one attempt only (video creation is not idempotent and is billed). */
  retry?: boolean;
  accept?: string;
  /** Overrides the client's header deadline for this request. */
  timeoutMs?: number;
  /** Called before each retry of this request, after the client-wide `onRetry`. */
  onRetry?: (info: { attempt: number; delayMs: number; error: GatewayError }) => void;
  /** Follow redirects (downloads only; API calls never do, see redirects.ts). */
  followRedirects?: boolean;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_IDLE_MS = 120_000;
const DEFAULT_RETRIES = 2;

function requestIdOf(h: Headers): string | undefined {
  return h.get('x-request-id') ?? h.get('request-id') ?? h.get('x-oneapi-request-id') ?? undefined;
}

/**
 * HTTP core: bearer auth, a header deadline, retries with backoff, typed errors, and an idle
 * watchdog for streamed bodies. Paths are relative to the `/v1` base (`/models`); a path starting
 * with `/v1/` or an absolute URL is also accepted. The key is sent only in the Authorization
 * header and only to the base URL's origin.
 */
export class HttpClient {
  /** The normalised `/v1` base URL. */
  readonly baseUrl: string;
  /** What normalisation changed or found risky. */
  readonly warnings: readonly string[];
  readonly timeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly maxRetries: number;
  /** The size limits; Infinity when none is set. */
  readonly maxAnswerBytes: number;
  readonly maxDownloadBytes: number;
  private readonly origin: string;
  private readonly apiKey: string | undefined;
  /** What logs and quoted error bodies never show: the key and the extra headers' values. */
  private readonly secrets: string[];
  private readonly fetchFn: typeof fetch;
  private readonly random: () => number;
  private readonly controllers = new WeakMap<Response, RequestLink>();
  /** What a download (./wireGet) needs of this client, the key rule included; made on the first. */
  private wire: WireContext | undefined;

  constructor(private readonly o: HttpOptions) {
    const n = normaliseBaseUrl(o.baseUrl, undefined, o.allowInsecureHttp === true);
    this.baseUrl = n.url;
    this.warnings = n.warnings;
    this.origin = new URL(n.url).origin;
    this.apiKey = o.apiKey?.trim() || undefined;
    rememberSecret(this.apiKey);
    this.secrets = [
      ...(this.apiKey ? [this.apiKey] : []),
      ...headerSecrets(expandHeaders(this.apiKey, o.headers, ...Object.values(o.modelHeaders ?? {}))),
    ];
    for (const v of this.secrets) rememberSecret(v);
    // Looked up per call: VS Code may replace global fetch after we are constructed.
    this.fetchFn = o.fetch ?? ((input, init) => fetch(input, init));
    this.timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.idleTimeoutMs = o.idleTimeoutMs ?? DEFAULT_IDLE_MS;
    this.maxRetries = Math.max(0, o.maxRetries ?? DEFAULT_RETRIES);
    this.random = o.random ?? Math.random;
    this.maxAnswerBytes = o.maxAnswerBytes ?? Number.POSITIVE_INFINITY;
    this.maxDownloadBytes = o.maxDownloadBytes ?? Number.POSITIVE_INFINITY;
  }

  /** Whether a key will be sent. */
  get hasKey(): boolean {
    return this.apiKey !== undefined;
  }

  /** The absolute URL for a path (see the class comment for the accepted forms). */
  url(path: string): string {
    return resolveAgainstBase(this.baseUrl, path);
  }

  /** Writes to the log with the key masked, whatever the message contains. */
  log(level: LogLevel, msg: string): void {
    this.o.log?.(level, redact(msg, this.secrets));
  }

  /** The profile's and the model's extra headers for `url`: none for another origin. */
  private extraHeaders(url: string, body: unknown): Record<string, string> {
    if (new URL(url).origin !== this.origin) return {};
    const model =
      body && typeof body === 'object' && typeof (body as { model?: unknown }).model === 'string'
        ? (body as { model: string }).model
        : undefined;
    const perModel = model !== undefined ? this.o.modelHeaders?.[model] : undefined;
    return expandHeaders(this.apiKey, this.o.headers, perModel);
  }

  /**
   * Sends a request and resolves with a 2xx `Response` whose body is still unread. Non-2xx answers
   * become a {@link GatewayError} parsed from the spec's error object. Retries 408/409/429/5xx and
   * connection failures (honouring `x-should-retry`) unless `retry` is false.
   */
  async request(method: string, path: string, o: RequestOptions = {}): Promise<Response> {
    const url = this.url(path);
    const shownPath = new URL(url).pathname;
    this.checkKey(method, shownPath);
    return this.retrying(method, shownPath, o, (attempt) => this.once(method, url, shownPath, o, attempt));
  }

  /**
   * A GET for a large body (a video), through node:http(s) rather than fetch (./wireGet says why
   * and why proxy support holds), with this client's key rule, header deadline, redirect checks
   * and retries. Resolves with a 2xx answer whose body is still unread.
   */
  async download(path: string, o: WireGetOptions & { retry?: boolean } = {}): Promise<WireResponse> {
    const url = this.url(path);
    const shownPath = new URL(url).pathname;
    this.checkKey('GET', shownPath);
    // node:http and the resolver check load with the first download: activation and chat need neither.
    const { wireGet, withLookup } = await import('./wireGet');
    const wire = (this.wire ??= withLookup(this.wireBase(), this.o.resolve, gatewayIsLocal(this.baseUrl)));
    return this.retrying('GET', shownPath, o, () => wireGet(wire, url, shownPath, o));
  }

  private wireBase(): Omit<WireContext, 'lookup'> {
    return {
      baseUrl: this.baseUrl,
      origin: this.origin,
      // The same rule as fetch's path (once): the key only to the gateway's own origin, per hop.
      authorization: (url) =>
        this.apiKey && new URL(url).origin === this.origin ? `Bearer ${this.apiKey}` : undefined,
      extraHeaders: (url) => this.extraHeaders(url, undefined),
      redact: (text) => redact(text, this.secrets),
      timeoutMs: this.timeoutMs,
      log: (level, msg) => this.log(level, msg),
      proxy: this.o.proxy,
      noProxy: this.o.noProxy,
    };
  }

  /** Refuses a key that cannot go into an HTTP header (see the comment inside). */
  private checkKey(method: string, shownPath: string): void {
    // fetch refuses a header with a non-ASCII character with a TypeError that read as "could not
    // connect" and was retried; a key pasted with a stray "…" or smart quote is a key problem.
    if (this.apiKey !== undefined && !/^[\x21-\x7e]+$/.test(this.apiKey)) {
      throw new GatewayError(
        'config',
        l10n.t(
          'The API key contains a character that cannot be sent in an HTTP header (keys are plain ASCII); it was probably copied with something extra. Run "Set API Key" and paste it again from the console\'s API Keys page.',
        ),
        { field: 'apiKey', method, path: shownPath },
      );
    }
  }

  /** The retry loop around `attempt` (see {@link request}). */
  private async retrying<T>(
    method: string,
    shownPath: string,
    o: Pick<RequestOptions, 'retry' | 'signal' | 'onRetry'>,
    attemptOnce: (attempt: number) => Promise<T>,
  ): Promise<T> {
    const maxRetries = o.retry === false ? 0 : this.maxRetries;
    for (let attempt = 0; ; attempt++) {
      let error: GatewayError;
      try {
        return await attemptOnce(attempt);
      } catch (e) {
        if (!(e instanceof GatewayError)) throw e;
        error = e;
      }
      if (!error.retryable || attempt >= maxRetries || o.signal?.aborted) {
        const stillLimited = error.kind === 'rate_limit' && attempt > 0;
        throw error.with(stillLimited ? { retries: attempt, advice: 'stillRateLimited' } : { retries: attempt });
      }
      const delayMs = retryDelayMs(attempt, error.headers, this.random);
      this.log(
        'warn',
        `${method} ${shownPath} failed (${error.message}); retry ${attempt + 1}/${maxRetries} in ${Math.round(delayMs)} ms`,
      );
      this.o.onRetry?.({ attempt: attempt + 1, delayMs, error });
      o.onRetry?.({ attempt: attempt + 1, delayMs, error });
      await sleep(delayMs, o.signal);
    }
  }

  /** The headers and body of a request: the key only to the gateway's own origin. */
  private requestParts(url: string, o: RequestOptions): { headers: Record<string, string>; body?: string | FormData } {
    const headers: Record<string, string> = {
      ...this.extraHeaders(url, o.body),
      Accept: o.accept ?? 'application/json',
    };
    // An absolute URL from a server response may point elsewhere.
    if (this.apiKey && new URL(url).origin === this.origin) headers.Authorization = `Bearer ${this.apiKey}`;
    if (o.form !== undefined) return { headers, body: o.form };
    if (o.body === undefined) return { headers };
    headers['Content-Type'] = 'application/json';
    return { headers, body: JSON.stringify(o.body) };
  }

  private async once(
    method: string,
    url: string,
    shownPath: string,
    o: RequestOptions,
    attempt: number,
    hops = 0,
  ): Promise<Response> {
    const ctrl = new AbortController();
    const user = o.signal;
    if (user?.aborted) throw abortedError(method, shownPath);
    const onUserAbort = () => ctrl.abort(user?.reason);
    user?.addEventListener('abort', onUserAbort, { once: true });
    const unlink = () => user?.removeEventListener('abort', onUserAbort);
    const timeoutMs = o.timeoutMs ?? this.timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort();
    }, timeoutMs);

    const { headers, body } = this.requestParts(url, o);
    const started = Date.now();
    this.log('debug', `${method} ${shownPath}${attempt ? ` (retry ${attempt})` : ''}`);
    let res: Response;
    try {
      res = await this.fetchFn(url, { method, headers, body, signal: ctrl.signal, redirect: 'manual' });
    } catch (e) {
      clearTimeout(timer);
      unlink();
      if (user?.aborted) throw abortedError(method, shownPath);
      const deadline = timedOut ? timeoutMs : undefined;
      throw noAnswer(e, {
        method,
        url,
        path: shownPath,
        timeoutMs: deadline,
        proxy: this.o.proxy,
        noProxy: this.o.noProxy,
      });
    }
    const requestId = requestIdOf(res.headers);
    this.log(
      'debug',
      `${method} ${shownPath} -> ${res.status} in ${Date.now() - started} ms${requestId ? ` (request id ${requestId})` : ''}`,
    );
    if (res.ok) {
      clearTimeout(timer);
      this.controllers.set(res, { ctrl, unlink });
      return res;
    }
    if (isRedirect(res.status)) {
      clearTimeout(timer);
      unlink();
      void res.body?.cancel().catch(() => undefined);
      const next = redirectTarget(res, url, this.baseUrl, { method, path: shownPath, follow: o.followRedirects, hops });
      this.log('debug', `${method} ${shownPath} -> ${res.status}, following to ${new URL(next).host}`);
      return this.once(method, next, shownPath, o, attempt, hops + 1);
    }
    let text = '';
    try {
      text = await res.text();
    } catch {
      // The status alone still says what went wrong.
    } finally {
      clearTimeout(timer);
      unlink();
    }
    // Servers sometimes echo the request back; the key must not survive into the message. Another
    // host's body (a CDN's error page) is not quoted at all: it would reach the model verbatim.
    const safeText = new URL(url).origin === this.origin ? redact(text, this.secrets) : '';
    throw errorFromHttp(res.status, safeText, { method, path: shownPath, requestId, headers: res.headers });
  }

  /**
   * Yields a response body's chunks under the idle watchdog (./idleBody): silence for
   * `idleTimeoutMs` is a `timeout`, a dropped connection `network`, a stop `aborted`, a body past
   * `maxAnswerBytes` `truncated`.
   */
  async *body(res: Response, o: { signal?: AbortSignal; idleTimeoutMs?: number } = {}): AsyncGenerator<Uint8Array> {
    const link = this.controllers.get(res);
    this.controllers.delete(res);
    const path = new URL(res.url || this.baseUrl).pathname;
    yield* idleBody(res, link, {
      idleMs: o.idleTimeoutMs ?? this.idleTimeoutMs,
      path,
      signal: o.signal,
      maxBytes: this.maxAnswerBytes,
    });
  }

  /** Reads a whole body as text under the idle watchdog. */
  async text(res: Response, o: { signal?: AbortSignal } = {}): Promise<string> {
    const dec = new TextDecoder();
    let out = '';
    for await (const chunk of this.body(res, o)) out += dec.decode(chunk, { stream: true });
    return out + dec.decode();
  }

  /** A request whose 2xx body is JSON validated by `schema`; anything else is `invalid_response`. */
  async json<T>(method: string, path: string, schema: z.ZodMiniType<T>, o: RequestOptions = {}): Promise<T> {
    const res = await this.request(method, path, o);
    const text = await this.text(res, { signal: o.signal });
    return parseJson(text, schema, method, new URL(this.url(path)).pathname);
  }
}

/** Parses and validates a JSON body, naming what is wrong when it does not fit. */
export function parseJson<T>(text: string, schema: z.ZodMiniType<T>, method: string, path: string): T {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const head = text.replace(/\s+/g, ' ').trim().slice(0, 120);
    throw new GatewayError('invalid_response', l10n.t('{0} {1} did not answer JSON: "{2}"', method, path, head), {
      method,
      path,
    });
  }
  const r = schema.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : l10n.t('the body');
    throw new GatewayError(
      'invalid_response',
      l10n.t('{0} {1} answered an unexpected shape at {2}: {3}', method, path, where, issue?.message ?? ''),
      { method, path },
    );
  }
  return r.data;
}
