// One `POST /v1/responses`, streamed or not, read into the chat's result (events.ts).
import * as l10n from '@vscode/l10n';
import * as z from '../../shared/zod';
import { GatewayError, isGatewayError } from '../transport/errors';
import { parseJson, type HttpClient } from '../transport/http';
import { DONE, parseJsonEvents } from '../transport/sse';
import type { ChatResult, StreamOptions } from '../chat/wire';
import { ResponsesAccumulator, type ReasoningItem } from './events';

/** An answer and the encrypted reasoning that came with it. */
export interface ResponsesAnswer {
  result: ChatResult;
  reasoning: readonly ReasoningItem[];
}

const PATH = '/responses';

/** A non-streamed response. */
export async function postResponses(
  http: HttpClient,
  body: Record<string, unknown>,
  signal?: AbortSignal,
  retry?: boolean,
): Promise<ResponsesAnswer> {
  const res = await http.request('POST', PATH, { body, signal, ...(retry === false ? { retry: false } : {}) });
  const acc = new ResponsesAccumulator();
  acc.pushResponse(parseJson(await http.text(res, { signal }), z.unknown(), 'POST', '/v1/responses'));
  return { result: acc.result(), reasoning: acc.encryptedReasoning };
}

/**
 * A streamed response. Retries only before the first byte (the HTTP client's rule). A stream that
 * ends without `response.completed` throws `truncated` and one stopped by the signal `aborted`,
 * both with what arrived in `partial`, exactly as a chat stream cut short.
 */
export async function streamResponses(
  http: HttpClient,
  body: Record<string, unknown>,
  o: StreamOptions = {},
): Promise<ResponsesAnswer> {
  const { signal, onEvent } = o;
  const res = await http.request('POST', PATH, {
    body,
    signal,
    accept: 'text/event-stream',
    onRetry: (i) => onEvent?.({ type: 'retry', attempt: i.attempt, delayMs: i.delayMs, message: i.error.message }),
  });
  const acc = new ResponsesAccumulator(onEvent);
  // A gateway that ignores `stream: true` answers one JSON response.
  if ((res.headers.get('content-type') ?? '').includes('application/json')) {
    acc.pushResponse(parseJson(await http.text(res, { signal }), z.unknown(), 'POST', '/v1/responses'));
    return { result: acc.result(), reasoning: acc.encryptedReasoning };
  }
  let sawDone = false;
  try {
    const skipped = (d: string) => http.log('warn', `skipped a responses event that is not JSON: ${d}`);
    for await (const ev of parseJsonEvents(http.body(res, { signal }), skipped)) {
      if (ev === DONE) {
        sawDone = true;
        break;
      }
      const { json, error } = ev;
      acc.push(
        error && typeof json === 'object' && json !== null && !('type' in json) ? { type: 'error', error: json } : json,
      );
      if (acc.finished) break;
    }
  } catch (e) {
    if (!isGatewayError(e)) throw e;
    const partial = e.partial ?? acc.result();
    if (e.kind === 'network')
      throw new GatewayError(
        'truncated',
        l10n.t('The connection broke before the answer was complete ({0}).', e.message),
        { partial, cause: e },
      );
    throw e.with({ partial });
  }
  if (!acc.finished)
    throw new GatewayError(
      'truncated',
      sawDone
        ? l10n.t(
            'The responses stream ended with [DONE] but without response.completed, so the answer may be incomplete.',
          )
        : l10n.t('The responses stream ended without response.completed, so the answer may be incomplete.'),
      { partial: acc.result() },
    );
  return { result: acc.result(), reasoning: acc.encryptedReasoning };
}

/** Whether a Responses refusal is about the `reasoning` / `include` fields (a model that does not reason). */
export function isReasoningRefusal(e: unknown): boolean {
  if (!isGatewayError(e) || (e.status !== 400 && e.status !== 422)) return false;
  if (e.param && /^(reasoning|include)/.test(e.param)) return true;
  return /reasoning\.(summary|effort)|reasoning\.encrypted_content|'reasoning'/i.test(e.message);
}
