// `POST /v1/completions` (the legacy text endpoint), used for fill-in-the-middle: a `prompt` before
// the hole and a `suffix` after it. Not streamed: a completion is a few dozen tokens, the ghost
// text is shown whole, and a stop is an abort of the one request (the connection is closed).
import * as l10n from '@vscode/l10n';
import * as z from '../../shared/zod';
import { GatewayError, readWireError } from '../transport/errors';
import { parseJson, type HttpClient } from '../transport/http';

/** What the completions endpoint takes (the part of it a fill-in-the-middle request uses). */
export interface FimRequest {
  model: string;
  prompt: string;
  suffix?: string;
  max_tokens: number;
  temperature?: number;
  stop?: string[];
}

export interface FimResult {
  text: string;
  /** `stop`, `length`, … as the server said; undefined when it did not. */
  finishReason?: string;
  /** The model that answered, when the server says. */
  model?: string;
}

export interface FimOptions {
  signal?: AbortSignal;
  /** false: one attempt only (a completion that failed is stale by the time a retry would answer). */
  retry?: boolean;
}

const answerShape = z.object({
  model: z.optional(z.unknown()),
  choices: z.optional(z.unknown()),
  error: z.optional(z.unknown()),
});

function checkRequest(req: FimRequest): void {
  const fail = (field: string, message: string): never => {
    throw new GatewayError('validation', message, { field });
  };
  if (typeof req.model !== 'string' || req.model.trim() === '') fail('model', l10n.t('No model is chosen.'));
  if (typeof req.prompt !== 'string') fail('prompt', l10n.t('{0} must be text.', 'prompt'));
  if (req.suffix !== undefined && typeof req.suffix !== 'string') fail('suffix', l10n.t('{0} must be text.', 'suffix'));
  if (!Number.isInteger(req.max_tokens) || req.max_tokens < 1)
    fail('max_tokens', l10n.t('{0} must be a positive whole number.', 'max_tokens'));
  if (req.stop && req.stop.length > 4) fail('stop', l10n.t('At most {0} stop sequences are allowed.', 4));
}

/**
 * Sends one fill-in-the-middle request and returns the first choice's text. A 200 that carries an
 * error object, or no choice with text, is `invalid_response`/`server` like the chat's.
 */
export async function completeFim(http: HttpClient, req: FimRequest, o: FimOptions = {}): Promise<FimResult> {
  checkRequest(req);
  const res = await http.request('POST', '/completions', {
    body: { ...req, stream: false },
    signal: o.signal,
    ...(o.retry === false ? { retry: false } : {}),
  });
  const text = await http.text(res, { signal: o.signal });
  const body = parseJson(text, answerShape, 'POST', '/v1/completions');
  const wire = body.error !== undefined ? readWireError(body) : undefined;
  if (wire)
    throw new GatewayError('server', l10n.t('The gateway answered 200 with an error: {0}', wire.message ?? ''), {
      type: wire.type,
      code: wire.code,
      param: wire.param ?? null,
    });
  const first: unknown = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const choice = typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : undefined;
  if (!choice || typeof choice.text !== 'string')
    throw new GatewayError('invalid_response', l10n.t('The completion answer has no choice with text.'));
  return {
    text: choice.text,
    ...(typeof choice.finish_reason === 'string' ? { finishReason: choice.finish_reason } : {}),
    ...(typeof body.model === 'string' ? { model: body.model } : {}),
  };
}
