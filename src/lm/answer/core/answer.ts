// One answer of the language-model provider, streamed or not, without `vscode`.
import { isGatewayError, type GatewayError } from '../../../api/transport/errors';
import type { ChatBackend, ChatRequest, ChatResult, ChatStreamEvent } from '../../../api/chat/wire';

/** Options of {@link answerLmRequest}. */
export interface LmAnswerOptions {
  stream: boolean;
  signal?: AbortSignal;
  onEvent: (e: ChatStreamEvent) => void;
  /** Told (at info level) when the request was sent again in another form. */
  log?: (msg: string) => void;
  /**
   * Where refusals of `tool_choice: "required"` are remembered; without it every such request
   * pays for its own refused attempt.
   */
  refusals?: RequiredChoiceRefusals;
}

/**
 * Which gateway clients refused `tool_choice: "required"`, and for which models, for as long as
 * this object lives (the provider keeps one for the session).
 *
 * Keyed by the client object because the client factory hands out the same instance while the
 * base URL, key and network settings stay the same, and a new one when they change: another base
 * URL is another gateway, which may well accept the field. Keyed by model too, because the gateway
 * fronts several vendors (spec 1) and the refusal comes from the upstream behind one model; one
 * upstream refusing must not cost another model the guarantee that a tool is called. The price is
 * one refused request per model per session.
 */
export class RequiredChoiceRefusals {
  private readonly refused = new WeakMap<object, Set<string>>();

  /** Whether `backend` refused "required" for `model` before. */
  has(backend: object, model: string): boolean {
    return this.refused.get(backend)?.has(model) ?? false;
  }

  /** Records that `backend` refused "required" for `model`. */
  add(backend: object, model: string): void {
    let models = this.refused.get(backend);
    if (!models) {
      models = new Set();
      this.refused.set(backend, models);
    }
    models.add(model);
  }
}

/**
 * Sends `request` streamed, or, when the user turned streaming off (`gatewayStudio.chat.stream`:
 * for gateways or models that cannot stream), as one non-streaming request whose text is reported
 * in one piece once it arrived. Either way `onEvent` sees the answer's text and the result carries
 * its tool calls.
 *
 * `tool_choice: "required"` is not in spec 2.1 (auto, none or a tool object), so a gateway may
 * refuse it: a 400 or 422 that names `tool_choice` is answered by sending the request once more
 * with `"auto"` (the model may then answer in text), and `log` is told. With `o.refusals` the
 * refusal is remembered, so later such requests to that model through the same client go out
 * with `"auto"` at once (the log line is written only when the refusal is learnt).
 */
export async function answerLmRequest(
  backend: ChatBackend,
  request: ChatRequest,
  o: LmAnswerOptions,
): Promise<ChatResult> {
  if (request.tool_choice === 'required' && o.refusals?.has(backend, request.model)) {
    return send(backend, { ...request, tool_choice: 'auto' }, o);
  }
  try {
    return await send(backend, request, o);
  } catch (e) {
    if (request.tool_choice !== 'required' || !refusesToolChoice(e) || o.signal?.aborted) throw e;
    o.refusals?.add(backend, request.model);
    const later = o.refusals ? '; later requests to this model on this gateway use "auto" at once' : '';
    o.log?.(
      `${request.model}: the gateway refused tool_choice "required" (${e.status ?? ''}: ${e.message}); sent once more with "auto"${later}`,
    );
    return send(backend, { ...request, tool_choice: 'auto' }, o);
  }
}

async function send(backend: ChatBackend, request: ChatRequest, o: LmAnswerOptions): Promise<ChatResult> {
  if (o.stream) return backend.streamChat(request, { signal: o.signal, onEvent: o.onEvent });
  const result = await backend.chat(request, o.signal);
  if (result.message.reasoning_content) o.onEvent({ type: 'reasoning', text: result.message.reasoning_content });
  if (result.message.content) o.onEvent({ type: 'text', text: result.message.content });
  return result;
}

/**
 * Whether `e` is the gateway refusing the `tool_choice` field: a 400 or 422 (the statuses the
 * client's `stream_options` fallback treats as "this option is not supported") whose `param`, or
 * failing that whose message, names it; any other 400 is a real error and is not retried.
 */
function refusesToolChoice(e: unknown): e is GatewayError {
  if (!isGatewayError(e) || (e.status !== 400 && e.status !== 422)) return false;
  return e.param === 'tool_choice' || /\btool_choice\b/.test(e.message);
}
