/**
 * The gateway client's failures as data, for everyone who words them: the client (src/api)
 * throws errors of this shape, and ./errorWords turns them into each audience's text. Nothing
 * here is a sentence for the user.
 */

/** Every way a gateway call can fail, as one closed set so callers can `switch` exhaustively. */
export type GatewayErrorKind =
  | 'config'
  | 'validation'
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'rate_limit'
  | 'bad_request'
  | 'server'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'stream'
  | 'truncated'
  | 'invalid_response'
  | 'image_fetch'
  | 'video_failed'
  | 'not_video';

/**
 * What the thrower knows the user can do, beyond what the kind says (./errorWords words it):
 * - `checkVideoAddress`: the download was not a video; check the video base URL and key, resume;
 * - `resumeDownload`: the download's temporary file vanished; resume;
 * - `proxyCutDownload`: the download stopped early (a proxy may cut long transfers); resume;
 * - `freshResultLink`: a temporary result link may have expired; resume for a fresh one;
 * - `stillRateLimited`: still rate limited after the automatic retries;
 * - `raiseIdleTimeout`: the stream went quiet; raise the stream idle timeout;
 * - `brokenToolCall`: the model's tool call was malformed; send the request again.
 */
export type ErrorAdvice =
  | 'checkVideoAddress'
  | 'resumeDownload'
  | 'proxyCutDownload'
  | 'freshResultLink'
  | 'stillRateLimited'
  | 'raiseIdleTimeout'
  | 'brokenToolCall'
  /** A size limit stopped the body; `field` names the setting. */
  | 'raiseSizeLimit';

/** What a gateway failure states: the wire's error object, the request it belongs to, the retries. */
export interface GatewayErrorFacts {
  readonly name: string;
  readonly kind: GatewayErrorKind;
  /** The server's own text (or what the client observed), redacted. */
  readonly message: string;
  readonly status?: number;
  readonly type?: string;
  readonly code?: string;
  readonly param?: string | null;
  readonly requestId?: string;
  /** How many retries were made before giving up. */
  readonly retries: number;
  /** The text kept when a stream broke or was stopped. */
  readonly partial?: unknown;
  readonly method?: string;
  readonly path?: string;
  /** The field a validation error is about, e.g. `temperature` or `messages[2].content`. */
  readonly field?: string;
  readonly advice?: ErrorAdvice;
}

/** True for an error the gateway client threw (src/api/transport/errors.ts `GatewayError`). */
export function isGatewayFailure(err: unknown): err is GatewayErrorFacts {
  return err instanceof Error && err.name === 'GatewayError' && typeof (err as { kind?: unknown }).kind === 'string';
}

/** A 404 means a base URL without `/v1` or a wrong model ID; this guesses which from the evidence. */
export function notFoundCause(
  err: Pick<GatewayErrorFacts, 'code' | 'type' | 'message' | 'path'>,
): 'model' | 'baseUrl' | 'id' {
  const text = `${err.code ?? ''} ${err.type ?? ''} ${err.message}`.toLowerCase();
  const path = err.path ?? '';
  if (/\/videos?\/[^/]+/.test(path) && !path.endsWith('/generations')) return 'id';
  if (
    text.includes('model_not_found') ||
    /\bmodel\b/.test(err.code ?? '') ||
    /model .*(not|does not|doesn't) exist|unknown model|no such model|model.*not found/.test(text)
  ) {
    return 'model';
  }
  // GET /models does not depend on any model id, so a 404 there is the address.
  if (path.endsWith('/models')) return 'baseUrl';
  // Servers that answer an unknown route with their error object still say so in the message
  // (OpenAI-style "Invalid URL (POST /…)", Express's "Cannot POST /…").
  if (/\binvalid url\b|\bno route\b|\bcannot (post|get)\b|\bunknown (route|endpoint|path)\b/i.test(err.message))
    return 'baseUrl';
  // A gateway that knows the route answers with its error object; a bare 404 page means the route
  // itself does not exist there.
  if (!err.type && !err.code) return 'baseUrl';
  return 'model';
}
