import * as l10n from '@vscode/l10n';
import { redact } from '../../shared/redact';
import type { ErrorAdvice, GatewayErrorFacts, GatewayErrorKind } from '../../contracts/gatewayError';
import type { ChatResult } from './answer';

export type { ErrorAdvice, GatewayErrorKind } from '../../contracts/gatewayError';
export { notFoundCause } from '../../contracts/gatewayError';

/** Optional facts a {@link GatewayError} can carry. */
export interface GatewayErrorInit {
  status?: number;
  type?: string;
  code?: string;
  param?: string | null;
  requestId?: string;
  retryable?: boolean;
  /** What the user can do beyond what the kind says (worded by contracts/errorWords.ts). */
  advice?: ErrorAdvice;
  retries?: number;
  partial?: ChatResult;
  /** HTTP method and URL path (never the query, never a key) of the failed request. */
  method?: string;
  path?: string;
  /** The field a validation error is about, e.g. `temperature` or `messages[2].content`. */
  field?: string;
  /** Video id kept on video failures and poll timeouts, so the user can resume. */
  videoId?: string;
  /** The failed response's headers (`retry-after` and the like), when there was a response. */
  headers?: Headers;
  /** Numbers the error object stated beside its message (llama.cpp's `n_ctx`, `n_prompt_tokens`). */
  details?: Record<string, number>;
  cause?: unknown;
}

/**
 * The one error type of the gateway client: facts (kind, status, the wire's type, code and param,
 * the request id), never advice in words; contracts/errorWords.ts says what they mean to the user.
 * The message is always passed through `redact`, so a key echoed back by a server never reaches a
 * log or a notification.
 */
export class GatewayError extends Error implements GatewayErrorFacts {
  override readonly name = 'GatewayError';
  readonly kind: GatewayErrorKind;
  readonly status?: number;
  readonly type?: string;
  readonly code?: string;
  readonly param?: string | null;
  readonly requestId?: string;
  readonly retryable: boolean;
  readonly advice?: ErrorAdvice;
  /** How many retries were made before giving up. */
  readonly retries: number;
  /** The text kept when a stream broke or was stopped. */
  readonly partial?: ChatResult;
  readonly method?: string;
  readonly path?: string;
  readonly field?: string;
  readonly videoId?: string;
  readonly headers?: Headers;
  readonly details?: Record<string, number>;

  /** What it was made with, for {@link with}. */
  readonly #init: GatewayErrorInit;

  constructor(kind: GatewayErrorKind, message: string, init: GatewayErrorInit = {}) {
    super(redact(message), init.cause === undefined ? undefined : { cause: init.cause });
    this.#init = init;
    this.kind = kind;
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.param = init.param;
    this.requestId = init.requestId;
    this.retryable = init.retryable ?? false;
    this.advice = init.advice;
    this.retries = init.retries ?? 0;
    this.partial = init.partial;
    this.method = init.method;
    this.path = init.path;
    this.field = init.field;
    this.videoId = init.videoId;
    this.headers = init.headers;
    this.details = init.details;
  }

  /**
   * The same error with some facts added or changed, for what is learnt after it was made (the
   * retries given up after, the text a broken stream had delivered); the stack stays the original's.
   */
  with(changes: Omit<GatewayErrorInit, 'cause'>): GatewayError {
    const copy = new GatewayError(this.kind, this.message, { ...this.#init, ...changes });
    copy.stack = this.stack;
    return copy;
  }
}

/** True for a {@link GatewayError}, optionally of one of the given kinds. */
export function isGatewayError(err: unknown, ...kinds: GatewayErrorKind[]): err is GatewayError {
  return err instanceof GatewayError && (kinds.length === 0 || kinds.includes(err.kind));
}

/** Relays send the Python repr `"None"` for absent fields; treat it as absent. */
function field(v: unknown): string | undefined {
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string' || v === '' || v === 'None' || v === 'null') return undefined;
  return v;
}

/** The spec's error object (section 7), read leniently: `{ error: { type, code, message, param } }`. */
export interface WireError {
  message?: string;
  type?: string;
  code?: string;
  param?: string | null;
  /** Numeric fields of the error object besides `code` (llama.cpp: `n_ctx`, `n_prompt_tokens`). */
  details?: Record<string, number>;
}

function numbersOf(e: Record<string, unknown>): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(e)) if (k !== 'code' && typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Reads the spec's error object out of a parsed body, or undefined when the body is not one. */
export function readWireError(body: unknown): WireError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const rec = body as Record<string, unknown>;
  const inner = rec.error;
  if (typeof inner === 'string') return { message: inner };
  if (typeof inner === 'object' && inner !== null) {
    const e = inner as Record<string, unknown>;
    const details = numbersOf(e);
    return {
      message: field(e.message),
      type: field(e.type),
      code: field(e.code),
      param: field(e.param) ?? null,
      ...(details ? { details } : {}),
    };
  }
  // Some relays answer `{ "message": "...", "code": ... }` without the envelope.
  if (typeof rec.message === 'string' && rec.message !== '' && !('choices' in rec) && !('data' in rec)) {
    return { message: rec.message, type: field(rec.type), code: field(rec.code), param: null };
  }
  return undefined;
}

/** Status codes openai-node (and we) retry: the request may succeed if sent again unchanged. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function kindForStatus(status: number, wire: WireError | undefined): GatewayErrorKind {
  const tag = `${wire?.type ?? ''} ${wire?.code ?? ''}`.toLowerCase();
  if (tag.includes('image_fetch') || /image.*(fetch|download)|(fetch|download).*image/i.test(wire?.message ?? '')) {
    return 'image_fetch';
  }
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limit';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  return 'bad_request';
}

/** Context of the request an HTTP error belongs to. */
export interface HttpErrorContext {
  method: string;
  path: string;
  requestId?: string;
  retries?: number;
  /** The response's headers: kept on the error, and `x-should-retry` overrides the status's retryability. */
  headers?: Headers;
}

/**
 * Turns a non-2xx answer into a {@link GatewayError}: the spec's error object when the body is
 * one, else the first 300 characters of the body (HTML error pages included, redacted).
 */
export function errorFromHttp(status: number, bodyText: string, ctx: HttpErrorContext): GatewayError {
  let parsed: unknown;
  try {
    parsed = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    parsed = undefined;
  }
  const wire = readWireError(parsed);
  const serverText = wire?.message ?? bodyText.replace(/\s+/g, ' ').trim().slice(0, 300);
  const kind = kindForStatus(status, wire);
  const shouldRetry = ctx.headers?.get('x-should-retry');
  const message = serverText
    ? l10n.t('HTTP {0} from {1} {2}: {3}', status, ctx.method, ctx.path, serverText)
    : l10n.t('HTTP {0} from {1} {2}', status, ctx.method, ctx.path);
  return new GatewayError(kind, message, {
    status,
    type: wire?.type,
    code: wire?.code,
    param: wire?.param ?? null,
    requestId: ctx.requestId,
    retryable: shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : isRetryableStatus(status),
    retries: ctx.retries ?? 0,
    method: ctx.method,
    path: ctx.path,
    headers: ctx.headers,
    details: wire?.details,
  });
}
