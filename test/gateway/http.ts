/** HTTP plumbing shared by the gateway's routes: error bodies, body reading and a fault-aware body writer. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultEffects } from './faults';

/** The spec's error object (section 7). */
export interface ErrorObject {
  type: string;
  code: string;
  message: string;
  param: string | null;
}

/** An error that a route throws to answer with the spec's error object. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorObject,
    /** The whole body, for servers whose error is not the spec's envelope (llama.cpp, vLLM). */
    readonly raw?: unknown,
  ) {
    super(error.message);
  }
}

/** Build an {@link HttpError} in one line. */
export function httpError(
  status: number,
  type: string,
  code: string,
  message: string,
  param: string | null = null,
): HttpError {
  return new HttpError(status, { type, code, message, param });
}

/** The body a status fault sends when it gives none: what a real gateway says for that status. */
export function defaultErrorFor(status: number, model?: string): ErrorObject {
  const e = (type: string, code: string, message: string): ErrorObject => ({ type, code, message, param: null });
  switch (status) {
    case 400:
      return e('invalid_request_error', 'invalid_request', 'Bad request');
    case 401:
      return e('authentication_error', 'invalid_api_key', 'Incorrect API key provided');
    case 402:
      return e('payment_required', 'payment_required', 'Insufficient credits');
    case 403:
      return e('permission_denied', 'permission_denied', 'model not allowed for this group');
    case 404:
      return e('invalid_request_error', 'not_found', 'Not found');
    case 408:
      return e('timeout_error', 'request_timeout', 'Request timed out');
    case 409:
      return e('conflict_error', 'conflict', 'Conflict');
    case 422:
      return e('invalid_request_error', 'unprocessable_entity', 'Unprocessable entity');
    case 429:
      return e(
        'rate_limit_error',
        'rate_limit_exceeded',
        `Rate limit exceeded for model ${model ?? 'default'}, please retry later`,
      );
    case 500:
      return e('server_error', 'internal_error', 'The server had an error while processing your request');
    case 502:
      return e('upstream_error', 'bad_gateway', 'Bad gateway: upstream did not answer');
    case 503:
      return e('server_error', 'service_unavailable', 'The service is temporarily overloaded');
    case 504:
      return e('timeout_error', 'gateway_timeout', 'Upstream timed out');
    default:
      return e(status >= 500 ? 'server_error' : 'invalid_request_error', `http_${status}`, `HTTP ${status}`);
  }
}

/** Resolve after `ms`; unref'd so a pending delay never keeps a test process alive. */
export function sleep(ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Read the whole request body, refusing more than `limit` bytes. */
export async function readBody(req: IncomingMessage, limit = 64 * 1024 * 1024): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit)
      throw httpError(413, 'invalid_request_error', 'request_too_large', `request body is larger than ${limit} bytes`);
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

/** Headers every answer gets from faults (`headers`, `retryAfter`, `retryAfterMs`). */
export function faultHeaders(fx: FaultEffects): Record<string, string> {
  const h: Record<string, string> = { ...(fx.headers ?? {}) };
  if (fx.retryAfter !== undefined) h['retry-after'] = String(fx.retryAfter);
  if (fx.retryAfterMs !== undefined) h['retry-after-ms'] = String(fx.retryAfterMs);
  return h;
}

/**
 * Writes a response body the way the faults ask: in `split`-byte pieces, cut off after
 * `dropAfterBytes`, always waiting for `drain` so large bodies are never buffered whole.
 */
export class BodyWriter {
  private written = 0;
  private stopped = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly opts: { split?: number; dropAfterBytes?: number },
  ) {
    res.on('close', () => {
      this.stopped = true;
    });
  }

  /** False once the client went away or the body was cut off: callers stop producing. */
  get open(): boolean {
    return !this.stopped && !this.res.destroyed;
  }

  /** Bytes of body sent so far. */
  get bytes(): number {
    return this.written;
  }

  /** Write some bytes; resolves when they are handed to the socket (or the stream stopped). */
  async write(data: Buffer | string): Promise<boolean> {
    if (!this.open) return false;
    let buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let cut = false;
    if (this.opts.dropAfterBytes !== undefined) {
      const room = this.opts.dropAfterBytes - this.written;
      if (buf.length >= room) {
        buf = buf.subarray(0, Math.max(0, room));
        cut = true;
      }
    }
    const step = this.opts.split && this.opts.split > 0 ? this.opts.split : buf.length;
    for (let at = 0; at < buf.length; at += step) {
      if (!this.open) return false;
      const piece = buf.subarray(at, Math.min(buf.length, at + step));
      this.written += piece.length;
      if (!this.res.write(piece)) await this.drain();
      // A pause between pieces makes them separate TCP segments, so the client really reads them apart.
      if (step < buf.length) await new Promise<void>((r) => setImmediate(r));
    }
    if (cut) {
      this.cutOff();
      return false;
    }
    return this.open;
  }

  /** Destroy the connection after what was written has been flushed (a truncated transfer). */
  cutOff(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.res.write('', () => this.res.destroy());
  }

  /** Finish the body normally. */
  end(): void {
    if (!this.open) return;
    this.stopped = true;
    this.res.end();
  }

  private drain(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }
}

/** Send a JSON answer through the fault-aware writer. */
export async function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  fx: FaultEffects,
  extraHeaders: Record<string, string> = {},
): Promise<void> {
  const text = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(text.length),
    ...extraHeaders,
    ...faultHeaders(fx),
  });
  const w = new BodyWriter(res, fx);
  if (await w.write(text)) w.end();
}

/** Send an error object answer. */
export function sendError(res: ServerResponse, err: HttpError, fx: FaultEffects): Promise<void> {
  return sendJson(res, err.status, err.raw ?? { error: err.error }, fx);
}

/** `[first, last]` of a single `bytes=N-` or `bytes=N-M` range inside `size`, else undefined (whole body). */
export function byteRange(header: string | undefined, size: number): [number, number] | undefined {
  const m = /^bytes=(\d+)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m) return undefined;
  const first = Number(m[1]);
  const last = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  return first <= last ? [first, last] : undefined;
}
