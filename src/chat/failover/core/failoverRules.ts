/**
 * Which refusals send a chat request to the next profile (issue 39), and for how long the profile
 * that refused is skipped. Only refusals that came before any answer: the caller says whether a
 * token arrived, and an error that carries a partial answer never fails over. Only chat: a video
 * or image creation is billed and not idempotent, so it never goes to a second relay.
 */
import { isGatewayError, type GatewayError } from '../../../api/transport/errors';

/** Why a profile was left: each is a refusal the next relay may well not share. */
export type FailoverCause = 'rate_limit' | 'payment' | 'quota' | 'server' | 'connection';

/** What a request creates: only a chat answer may be asked of another relay. */
export type RequestKind = 'chat' | 'image' | 'video';

/**
 * new-api's (and one-api's) quota and balance refusals, by code (types/error.go: 403 with
 * `type: new_api_error`), OpenAI's `insufficient_quota` (429) that relays pass through, and the
 * token-exhausted words of new-api's key check (401 `该令牌额度已用尽`), which carry no code.
 */
const QUOTA_CODES = new Set([
  'insufficient_user_quota',
  'pre_consume_token_quota_failed',
  'insufficient_quota',
  'token_quota_exhausted',
  'quota_exceeded',
]);
const QUOTA_WORDS =
  /该令牌额度已用尽|额度不足|余额不足|用户额度|token quota is not enough|user quota is not enough|insufficient (user )?quota|insufficient (balance|credits)/i;

/** Node's and undici's words for a connection refused or reset before any header came. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

/** The `code`s along an error's `cause` chain (fetch hides the socket's inside "fetch failed"). */
function causeCodes(err: unknown): string[] {
  const out: string[] = [];
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur instanceof Error; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') out.push(code);
    cur = cur.cause;
  }
  return out;
}

/** Whether a failed call had already handed the user something (text, reasoning, a call). */
function answered(e: GatewayError): boolean {
  const m = e.partial?.message;
  return !!m && ((m.content ?? '') !== '' || (m.reasoning_content ?? '') !== '' || (m.tool_calls?.length ?? 0) > 0);
}

/** Whether the refusal is new-api's (or OpenAI's) "no quota left", whatever its status. */
export function isQuotaRefusal(e: GatewayError): boolean {
  return QUOTA_CODES.has((e.code ?? '').toLowerCase()) || QUOTA_WORDS.test(e.message);
}

/**
 * The cause to fail over for, or undefined when the error must reach the user as it is: a stop,
 * anything after the first token, a request the next relay would refuse alike (400, 404), a
 * video or image creation.
 */
export function failoverCause(err: unknown, o: { kind: RequestKind; started: boolean }): FailoverCause | undefined {
  if (o.kind !== 'chat' || o.started || !isGatewayError(err) || err.kind === 'aborted' || answered(err))
    return undefined;
  if (err.status === 402) return 'payment';
  if (isQuotaRefusal(err)) return 'quota';
  if (err.status === 429) return 'rate_limit';
  if (err.status !== undefined && err.status >= 500) return 'server';
  if (err.kind === 'network' && causeCodes(err).some((c) => CONNECTION_CODES.has(c))) return 'connection';
  return undefined;
}

/** Whether a profile tried during failover refused its key (revoked, wrong): skipped like a failure. */
export function isKeyRefusal(err: unknown): boolean {
  return isGatewayError(err, 'auth', 'forbidden') && !isQuotaRefusal(err);
}

const MINUTE = 60_000;
/** A 429's own `retry-after` is believed between these bounds. */
const RATE_LIMIT_MIN = 15_000;
const RATE_LIMIT_MAX = 10 * MINUTE;

/** `retry-after-ms`, else `retry-after` (seconds or an HTTP date), in ms; undefined when absent or unreadable. */
function retryAfterMs(headers: Headers | undefined, now: number): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const ra = headers?.get('retry-after')?.trim();
  if (!ra) return undefined;
  if (/^\d+(\.\d+)?$/.test(ra)) return Number.parseFloat(ra) * 1000;
  const at = Date.parse(ra);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/**
 * How long a profile is skipped after it refused: a rate limit for its own `retry-after` (15 s to
 * 10 min, a minute when it gave none); an empty balance or quota for 10 minutes (it does not
 * refill by itself; a top-up is a deliberate act); an error of the server or the connection for a
 * minute; a refused key for 10 minutes.
 */
export function coolDownMs(cause: FailoverCause | 'key', err: unknown, now: number): number {
  switch (cause) {
    case 'rate_limit': {
      const ra = retryAfterMs(isGatewayError(err) ? err.headers : undefined, now);
      return ra === undefined ? MINUTE : Math.min(RATE_LIMIT_MAX, Math.max(RATE_LIMIT_MIN, ra));
    }
    case 'payment':
    case 'quota':
    case 'key':
      return 10 * MINUTE;
    case 'server':
    case 'connection':
      return MINUTE;
  }
}
